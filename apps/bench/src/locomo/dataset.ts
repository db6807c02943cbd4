import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { invalidInput, StrataError } from '@strata-memory/core';
import { z } from 'zod/v4';
import { parseSessionDate } from './session-date.ts';

/** Spacing between consecutive turns of a session: the dataset dates sessions, not turns. */
export const TURN_SPACING_MS = 30_000;

/** One dialogue turn as the memory under test sees it. */
export interface Turn {
  /** The dataset's `dia_id`, e.g. `D3:12`. */
  id: string;
  session: number;
  speaker: string;
  /** The text, plus the caption of an image the speaker shared. */
  content: string;
  /** Session date + `TURN_SPACING_MS` per position in the session. */
  at: number;
}

export interface Session {
  index: number;
  /** Epoch ms of the session date. */
  date: number;
  turns: Turn[];
}

export interface Question {
  question: string;
  /** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
  category: number;
  /** Evidence entries as the dataset gives them (possibly malformed). */
  evidence: string[];
}

export interface Conversation {
  /** The file name without `.json`, e.g. `conv-26`. */
  id: string;
  speakers: [string, string];
  sessions: Session[];
  questions: Question[];
}

const turnSchema = z.looseObject({
  speaker: z.string().min(1),
  dia_id: z.string().min(1),
  text: z.string(),
  blip_caption: z.string().optional(),
});

const questionSchema = z.looseObject({
  question: z.string().min(1),
  category: z.number().int().min(1).max(5),
  evidence: z.array(z.string()),
});

// Only the fields a memory system may see (turns, dates, speakers) and the questions are read:
// `events_*`, `session_*_observation` and `session_*_summary` are annotations, never parsed.
const conversationSchema = z.looseObject({
  speaker_a: z.string().min(1),
  speaker_b: z.string().min(1),
  qa: z.array(questionSchema),
});

const SESSION_KEY = /^session_(\d+)$/;

/** What a turn contributes to memory: its text, and the caption of an image it shares. */
export function turnContent(turn: { text: string; blip_caption?: string }): string {
  const caption = turn.blip_caption?.trim();
  return caption ? `${turn.text} [shares an image: ${caption}]` : turn.text;
}

/** Validates one parsed `conv-*.json` document and turns it into sessions of dated turns. */
export function parseConversation(id: string, document: unknown): Conversation {
  const parsed = conversationSchema.safeParse(document);
  if (!parsed.success) {
    throw invalidInput(`${id}: not a LoCoMo conversation: ${z.prettifyError(parsed.error)}`);
  }
  const raw = parsed.data as Record<string, unknown>;
  const sessions: Session[] = [];
  const seen = new Set<string>();
  const indices = Object.keys(raw)
    .map((key) => SESSION_KEY.exec(key)?.[1])
    .filter((index): index is string => index !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  for (const index of indices) {
    const turns = z.array(turnSchema).safeParse(raw[`session_${index}`]);
    if (!turns.success) {
      throw invalidInput(`${id}: session_${index}: ${z.prettifyError(turns.error)}`);
    }
    if (turns.data.length === 0) continue;
    const dateText = raw[`session_${index}_date_time`];
    if (typeof dateText !== 'string') {
      throw invalidInput(`${id}: session_${index} has turns but no session_${index}_date_time.`);
    }
    const date = parseSessionDate(dateText);
    sessions.push({
      index,
      date,
      turns: turns.data.map((turn, position) => {
        if (seen.has(turn.dia_id)) throw invalidInput(`${id}: turn id ${turn.dia_id} appears twice.`);
        seen.add(turn.dia_id);
        return {
          id: turn.dia_id,
          session: index,
          speaker: turn.speaker,
          content: turnContent(turn),
          at: date + position * TURN_SPACING_MS,
        };
      }),
    });
  }
  if (sessions.length === 0) throw invalidInput(`${id}: no session holds any turn.`);
  return {
    id,
    speakers: [parsed.data.speaker_a, parsed.data.speaker_b],
    sessions,
    questions: parsed.data.qa.map((q) => ({
      question: q.question,
      category: q.category,
      evidence: q.evidence,
    })),
  };
}

// The LoCoMo repository's `data/locomo10.json`: every conversation in one array, each entry
// `{ sample_id, conversation: { speaker_a, speaker_b, session_K, session_K_date_time }, qa, ... }`.
const officialFileSchema = z.array(
  z.looseObject({
    sample_id: z.string().min(1),
    conversation: z.looseObject({}),
    qa: z.array(z.unknown()),
  }),
);

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new StrataError({ code: 'invalid_input', message: `${path} is not readable JSON`, cause: error });
  }
}

/** Every conversation of the LoCoMo repository's single-file format (`locomo10.json`), in file order. */
export function parseOfficialFile(path: string, document: unknown): Conversation[] {
  const parsed = officialFileSchema.safeParse(document);
  if (!parsed.success) {
    throw invalidInput(
      `${path}: neither a folder of conv-*.json files nor the LoCoMo repository's locomo10.json: ${z.prettifyError(parsed.error)}`,
    );
  }
  if (parsed.data.length === 0) throw invalidInput(`${path} holds no conversation.`);
  return parsed.data.map((entry) =>
    parseConversation(entry.sample_id, { ...entry.conversation, qa: entry.qa }),
  );
}

/**
 * The conversations at `path`: a folder of `conv-*.json` files, in name order (numeric where the
 * names are numbers), or the LoCoMo repository's `locomo10.json`, in file order.
 */
export async function loadConversations(path: string): Promise<Conversation[]> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    throw new StrataError({ code: 'invalid_input', message: `Cannot read --data ${path}`, cause: error });
  }
  if (isFile) return parseOfficialFile(path, await readJson(path));
  let names: string[];
  try {
    names = await readdir(path);
  } catch (error) {
    throw new StrataError({ code: 'invalid_input', message: `Cannot read --data ${path}`, cause: error });
  }
  const files = names
    .filter((name) => /^conv-.+\.json$/.test(name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (files.length === 0) throw invalidInput(`No conv-*.json file in ${path}.`);
  const conversations: Conversation[] = [];
  for (const file of files) {
    const filePath = join(path, file);
    conversations.push(parseConversation(basename(file, '.json'), await readJson(filePath)));
  }
  return conversations;
}

/**
 * The conversations whose ids are in `ids` (all of them when `ids` is undefined), in their order;
 * an id that names none is rejected with `invalid_input`.
 */
export function selectConversations(
  conversations: Conversation[],
  ids: readonly string[] | undefined,
): Conversation[] {
  if (ids === undefined) return conversations;
  const unknown = ids.filter((id) => !conversations.some((conversation) => conversation.id === id));
  if (unknown.length > 0) {
    throw invalidInput(
      `No conversation ${unknown.join(', ')} in --data; it holds ${conversations.map((c) => c.id).join(', ')}.`,
    );
  }
  return conversations.filter((conversation) => ids.includes(conversation.id));
}

/** All turns of a conversation, in order. */
export function allTurns(conversation: Conversation): Turn[] {
  return conversation.sessions.flatMap((session) => session.turns);
}
