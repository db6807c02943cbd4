import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The LoCoMo dev split as the benchmark reads it: turns (with dates) and the non-adversarial questions. */

export interface LocomoTurn {
  /** `D<session>:<turn>`, the id evidence refers to. */
  id: string;
  speaker: string;
  text: string;
  /** What an image the speaker shared shows, when they shared one. */
  caption?: string;
}

export interface LocomoQuestion {
  question: string;
  /** Evidence turn ids; malformed entries are split, ids naming no turn stay (and count as missed). */
  evidence: string[];
  /** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop (5, adversarial, is left out). */
  category: 1 | 2 | 3 | 4;
}

export interface LocomoConversation {
  id: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

/** How a turn is turned into text for the embedder. */
export type TurnFormat = 'text' | 'speaker-caption';

export function turnText(turn: LocomoTurn, format: TurnFormat): string {
  if (format === 'text') return turn.text;
  return `${turn.speaker}: ${turn.text}${turn.caption ? ` [shares a photo of ${turn.caption}]` : ''}`;
}

export function loadLocomo(directory: string): LocomoConversation[] {
  const files = readdirSync(directory)
    .filter((name) => /^conv-\d+\.json$/.test(name))
    .sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]));
  return files.map((file) => {
    const raw = JSON.parse(readFileSync(join(directory, file), 'utf8')) as Record<string, unknown>;
    const turns: LocomoTurn[] = [];
    const sessions = Object.keys(raw)
      .map((key) => key.match(/^session_(\d+)$/))
      .filter((match): match is RegExpMatchArray => match !== null)
      .sort((a, b) => Number(a[1]) - Number(b[1]));
    for (const [key] of sessions) {
      for (const turn of raw[key] as Array<Record<string, unknown>>) {
        turns.push({
          id: String(turn.dia_id),
          speaker: String(turn.speaker),
          text: String(turn.text ?? ''),
          ...(typeof turn.blip_caption === 'string' ? { caption: turn.blip_caption } : {}),
        });
      }
    }
    const questions: LocomoQuestion[] = [];
    for (const qa of raw.qa as Array<Record<string, unknown>>) {
      const category = Number(qa.category);
      if (category === 5) continue;
      const evidence = (qa.evidence as string[])
        .flatMap((entry) => entry.split(/[;\s]+/))
        .map((id) => id.trim())
        .filter((id) => id.length > 0);
      if (evidence.length === 0) continue;
      questions.push({ question: String(qa.question), evidence, category: category as 1 | 2 | 3 | 4 });
    }
    return { id: file.replace(/\.json$/, ''), turns, questions };
  });
}
