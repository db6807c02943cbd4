import { StrataError } from '../errors/strata-error.ts';
import type { Summarizer, Tokenizer, TurnMessage } from '../ports/ports.ts';
import type { FactRecord, MessageRecord } from '../store/records.ts';
import { extractiveSummarizer } from './extractive-summarizer.ts';
import {
  checkFidelity,
  containsLiteral,
  type FidelityIssue,
  findProtectedLiterals,
} from './protected-literals.ts';

/**
 * Folding evicted turns into the thread's rolling summary, behind the fidelity guard: every
 * number, amount, date and proper name of the evicted turns must either be stored as a fact
 * extracted from those turns or appear word for word (and unhedged) in the new summary, and so
 * must the literals the previous summary carried. A summary that drops or alters one is rejected;
 * the previous summary is then kept and an extractive fold of the evicted turns, which holds
 * every literal, is appended to it.
 */

export interface FoldResult {
  summary: string;
  /** True when the summarizer's output passed the guard. */
  accepted: boolean;
  /** Why the summarizer's output was rejected (or that it threw). */
  issues: FidelityIssue[];
  error?: string;
  /** The literals the summary had to keep. */
  mustKeep: string[];
  /** Literals of the evicted turns already stored as facts (not required in the summary). */
  coveredByFacts: string[];
}

export function toTurnMessage(message: MessageRecord): TurnMessage {
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    ...(message.name === undefined ? {} : { name: message.name }),
    at: message.createdAt,
  };
}

/** The text of a fact a literal can be found in: entity, key and value. */
function factText(fact: FactRecord): string {
  const value = typeof fact.value === 'string' ? fact.value : JSON.stringify(fact.value);
  return `${fact.entityId} ${fact.key} ${value}`;
}

/**
 * Whether a literal is stored in one of `facts` (its entity, key or value holds it as a whole
 * token, case folded): such a literal need not be kept word for word in a summary.
 */
export function literalsHeldBy(facts: readonly FactRecord[]): (literal: string) => boolean {
  const text = facts.map((fact) => factText(fact).toLowerCase()).join(' ¶ ');
  return (literal) => text.length > 0 && containsLiteral(text, literal.toLowerCase());
}

export async function foldIntoSummary(args: {
  summarizer: Summarizer;
  tokenizer: Tokenizer;
  previousSummary?: string;
  evicted: MessageRecord[];
  /** Facts whose provenance message is one of `evicted`. */
  facts: FactRecord[];
  maxTokens: number;
  signal?: AbortSignal;
}): Promise<FoldResult> {
  const turns = args.evicted.filter((m) => m.role !== 'system').map(toTurnMessage);
  const evidenceIds = new Set(turns.map((t) => t.id));
  const facts = args.facts.filter((f) => f.provenance.messageId && evidenceIds.has(f.provenance.messageId));
  const turnLiterals = unique(turns.flatMap((t) => findProtectedLiterals(t.content).map((l) => l.text)));
  const held = literalsHeldBy(facts);
  const coveredByFacts = turnLiterals.filter((l) => held(l));
  const previousLiterals = args.previousSummary
    ? findProtectedLiterals(args.previousSummary).map((l) => l.text)
    : [];
  const mustKeep = unique([...turnLiterals.filter((l) => !coveredByFacts.includes(l)), ...previousLiterals]);
  const sources = [...turns.map((t) => t.content), args.previousSummary ?? ''];
  const base = { mustKeep, coveredByFacts };

  let candidate: string | undefined;
  let error: string | undefined;
  try {
    const out = await args.summarizer.summarize({
      ...(args.previousSummary === undefined ? {} : { previousSummary: args.previousSummary }),
      messages: turns,
      maxTokens: args.maxTokens,
      mustKeep,
      ...(args.signal ? { signal: args.signal } : {}),
    });
    if (typeof out?.summary !== 'string') throw new Error('summarizer returned no summary string');
    candidate = out.summary.trim();
  } catch (cause) {
    if (StrataError.isInstance(cause) && cause.code === 'invalid_input') throw cause;
    error = cause instanceof Error ? cause.message : String(cause);
  }
  if (candidate !== undefined) {
    const issues = checkFidelity({ summary: candidate, literals: mustKeep, sources });
    if (issues.length === 0) return { ...base, summary: candidate, accepted: true, issues };
    return { ...base, summary: await fallback(args, turns, mustKeep, sources), accepted: false, issues };
  }
  return {
    ...base,
    summary: await fallback(args, turns, mustKeep, sources),
    accepted: false,
    issues: [],
    ...(error === undefined ? {} : { error }),
  };
}

/** The previous summary, unchanged, plus an extractive fold of the evicted turns. */
async function fallback(
  args: { tokenizer: Tokenizer; previousSummary?: string; maxTokens: number },
  turns: TurnMessage[],
  mustKeep: string[],
  sources: string[],
): Promise<string> {
  const previous = args.previousSummary?.trim() ?? '';
  const room = Math.max(1, args.maxTokens - args.tokenizer.count(previous));
  const previousHas = (l: string) => containsLiteral(previous, l);
  const { summary } = await extractiveSummarizer({ tokenizer: args.tokenizer }).summarize({
    messages: turns,
    maxTokens: room,
    mustKeep: mustKeep.filter((l) => !previousHas(l)),
  });
  let combined = [previous, summary].filter((s) => s.length > 0).join('\n');
  const stillMissing = checkFidelity({ summary: combined, literals: mustKeep, sources })
    .filter((i) => i.problem === 'missing')
    .map((i) => i.literal);
  if (stillMissing.length > 0) combined += `\nKept verbatim: ${stillMissing.join('; ')}`;
  return combined;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
