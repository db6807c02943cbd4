import { z } from 'zod/v4';
import {
  PORT_SPECIFICATION_VERSION,
  type Summarizer,
  type Tokenizer,
  type TurnMessage,
} from '../ports/ports.ts';
import { parseArgs } from '../store/define-store.ts';
import { contentWords } from '../text/terms.ts';
import { defaultTokenizer } from '../tokenizer/tokenizer.ts';
import { containsLiteral } from './protected-literals.ts';

export interface ExtractiveSummarizerOptions {
  /** Counts tokens against `maxTokens`. Default: `defaultTokenizer()`. */
  tokenizer?: Tokenizer;
}

const argsSchema = z.object({
  previousSummary: z.string().optional(),
  messages: z.array(
    z.object({
      id: z.string(),
      role: z.enum(['system', 'user', 'assistant', 'tool']),
      content: z.string(),
      name: z.string().optional(),
      at: z.number(),
    }),
  ),
  maxTokens: z.number().int().min(1),
  mustKeep: z.array(z.string().min(1)),
  signal: z.unknown().optional(),
});

interface Sentence {
  /** Order in the combined input (previous summary lines first, then messages). */
  position: number;
  /** Group key: one output line per message (or per previous-summary line). */
  group: number;
  label: string;
  text: string;
  tokens: number;
  salience: number;
  literals: string[];
}

/**
 * The offline default summarizer: no model, deterministic. It keeps whole sentences from the
 * previous summary and the evicted messages: first the ones that carry a `mustKeep` literal (so
 * every literal survives word for word), then the most salient others (words frequent in the
 * window but not everywhere, user statements over chatter), until `maxTokens`. Kept sentences stay
 * in their original order, one line per message, prefixed with the speaker (the message's name,
 * else its role).
 *
 * A sentence is never cut: when the sentences that carry literals do not fit `maxTokens` together,
 * they are all kept whole and the summary exceeds `maxTokens` (literals are never dropped; recall
 * trims what it shows to its budget, whole sentences at a time). A literal found in no sentence is
 * listed on a `Kept verbatim:` line.
 */
export function extractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const tokenizer = options.tokenizer ?? defaultTokenizer();
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'extractive@1',
    async summarize(input) {
      const args = parseArgs(argsSchema, input, 'extractiveSummarizer.summarize');
      return { summary: summarize(args, tokenizer) };
    },
  };
}

function summarize(
  args: { previousSummary?: string; messages: TurnMessage[]; maxTokens: number; mustKeep: string[] },
  tokenizer: Tokenizer,
): string {
  const sentences = collectSentences(args, tokenizer);
  const mustKeep = [...new Set(args.mustKeep.map((l) => l.trim()).filter((l) => l.length > 0))];
  const chosen = new Set<Sentence>();
  let used = 0;
  const lineCost = (s: Sentence) => s.tokens + 1;

  // 1. Cover every literal, cheapest cover first (greedy set cover by literals per token).
  const uncovered = new Set(mustKeep.filter((l) => sentences.some((s) => s.literals.includes(l))));
  while (uncovered.size > 0) {
    let best: Sentence | undefined;
    let bestRatio = -1;
    for (const s of sentences) {
      if (chosen.has(s)) continue;
      const gain = s.literals.filter((l) => uncovered.has(l)).length;
      if (gain === 0) continue;
      const ratio = gain / lineCost(s);
      if (ratio > bestRatio) {
        best = s;
        bestRatio = ratio;
      }
    }
    if (!best) break;
    chosen.add(best);
    used += lineCost(best);
    for (const l of best.literals) uncovered.delete(l);
  }

  // 2. Fill with salient sentences while they fit.
  const rest = sentences.filter((s) => !chosen.has(s)).sort((a, b) => b.salience - a.salience);
  for (const s of rest) {
    if (used + lineCost(s) > args.maxTokens) continue;
    chosen.add(s);
    used += lineCost(s);
  }

  let summary = render([...chosen]);
  // Literals that were never in any sentence (e.g. given by the caller from elsewhere) are listed.
  const missing = mustKeep.filter((l) => !containsLiteral(summary, l));
  if (missing.length > 0) summary = `${summary}${summary ? '\n' : ''}Kept verbatim: ${missing.join('; ')}`;
  return summary;
}

function collectSentences(
  args: { previousSummary?: string; messages: TurnMessage[]; mustKeep: string[] },
  tokenizer: Tokenizer,
): Sentence[] {
  const raw: Array<Omit<Sentence, 'tokens' | 'salience' | 'literals'> & { weight: number }> = [];
  let position = 0;
  let group = 0;
  for (const line of (args.previousSummary ?? '').split('\n')) {
    const text = line.trim();
    if (text.length === 0) continue;
    raw.push({ position: position++, group: group++, label: '', text, weight: 1.2 });
  }
  for (const message of args.messages) {
    if (message.role === 'system') continue;
    const label = message.name ?? message.role;
    const weight = message.role === 'user' ? 1 : message.role === 'assistant' ? 0.8 : 0.5;
    for (const text of splitSentences(message.content)) {
      raw.push({ position: position++, group, label, text, weight });
    }
    group++;
  }
  const documentFrequency = new Map<string, number>();
  const termFrequency = new Map<string, number>();
  const words = raw.map((s) => contentWords(s.text));
  for (const list of words) {
    for (const w of list) termFrequency.set(w, (termFrequency.get(w) ?? 0) + 1);
    for (const w of new Set(list)) documentFrequency.set(w, (documentFrequency.get(w) ?? 0) + 1);
  }
  const n = raw.length;
  return raw.map((s, i) => {
    const list = words[i]!;
    let score = 0;
    for (const w of new Set(list)) {
      const idf = Math.log(1 + n / (documentFrequency.get(w) ?? 1));
      score += Math.log1p(termFrequency.get(w) ?? 0) * idf;
    }
    const tokens = tokenizer.count(s.label ? `${s.label}: ${s.text}` : s.text);
    const hasDigits = /\d/.test(s.text) ? 1.2 : 1;
    return {
      position: s.position,
      group: s.group,
      label: s.label,
      text: s.text,
      tokens,
      salience: (score / Math.sqrt(tokens + 4)) * s.weight * hasDigits,
      literals: args.mustKeep.filter((l) => containsLiteral(s.text, l)),
    };
  });
}

/** Sentences of a message: split after . ! ? or a line break; keeps numbers like 4.5 whole. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'“(])|\n+/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
}

function render(chosen: Sentence[]): string {
  chosen.sort((a, b) => a.position - b.position);
  const lines: string[] = [];
  let group = -1;
  for (const s of chosen) {
    if (s.group === group) lines[lines.length - 1] += ` ${s.text}`;
    else lines.push(s.label ? `${s.label}: ${s.text}` : s.text);
    group = s.group;
  }
  return lines.join('\n');
}
