import type { ExplainEntry } from '../engine/types.ts';
import type { Clock, Summarizer, Tokenizer } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { LIMITS } from '../store/limits.ts';
import type { FactRecord, MessageRecord } from '../store/records.ts';
import { escapeMemoryText } from '../text/render-context.ts';
import { messageAccessLevel, visibleMessages } from './message-access.ts';
import { foldIntoSummary } from './rolling-summary.ts';
import { toolCallsText } from './tool-call-text.ts';
import { type PinReason, selectWorkingWindow } from './working-window.ts';

/** Most unsummarised messages read per recall (the newest); older ones are folded in chunks. */
const WINDOW_READ = 1_000;
/**
 * Fewest tokens a message's line costs (list marker, line break, a role label and its colon), so
 * a window of `maxTokens` never holds more than `maxTokens / MIN_LINE_TOKENS` messages: reading
 * more of the newest ones is wasted work.
 */
const MIN_LINE_TOKENS = 4;
/** Messages per summarizer call. */
const FOLD_CHUNK = 100;
/** Messages folded per recall at most; the rest are folded by later recalls. */
const MAX_FOLD = 2_000;
/** Lines cost a list marker and a line break on top of their own tokens. */
const LINE_OVERHEAD = 2;

export interface WorkingMemory {
  /** Messages in the window, by seq. */
  messages: MessageRecord[];
  /** Rendered (escaped) line of each kept message, by id. */
  lines: Map<string, string>;
  /** Tokens of each kept line, list marker included. */
  tokens: Map<string, number>;
  pinned: Map<string, PinReason>;
  summary?: string;
  /** Tokens the rendered summary may take (half the working budget). */
  summaryBudget: number;
  explain: ExplainEntry[];
}

/**
 * `Alice (user): text`, or `assistant: text`. Tool calls follow the text as
 * `[calls name({"arg":1})]`; an assistant message that only calls tools renders as
 * `assistant: calls name({"arg":1})`. A message with neither text nor tool calls renders as ''
 * (it is left out of the window: an empty line tells the model nothing).
 */
export function renderMessage(message: MessageRecord): string {
  const label = message.name ? `${message.name} (${message.role})` : message.role;
  const text = message.content.trim();
  const calls = message.toolCalls && message.toolCalls.length > 0 ? toolCallsText(message.toolCalls) : '';
  if (!text && !calls) return '';
  const body = text && calls ? `${text} [${calls}]` : text || calls;
  return escapeMemoryText(`${label}: ${body}`);
}

/**
 * The thread's working memory for one recall: the window of recent messages within `maxTokens`
 * (the summary's tokens included), with the system prompt and latest user turn pinned. Messages
 * that fell out of the window and are not yet summarised are folded into the rolling summary now
 * (lazily, at recall time) and the result is persisted on the thread.
 */
export async function loadWorkingMemory(args: {
  store: Store;
  scope: Scope;
  tokenizer: Tokenizer;
  summarizer: Summarizer;
  clock: Clock;
  maxTokens: number;
  /** Include the summary (the `summary` layer). */
  withSummary: boolean;
  /** Counts a rendered line (default `tokenizer.count`); recall passes a cached counter. */
  countLine?: (text: string) => number;
  /** The reader's access level: messages observed with a higher `access` stay out of its window. */
  accessLevel: number;
}): Promise<WorkingMemory> {
  const empty: WorkingMemory = {
    messages: [],
    lines: new Map(),
    tokens: new Map(),
    pinned: new Map(),
    summaryBudget: 0,
    explain: [],
  };
  if (args.scope.threadId === undefined) return empty;
  const thread = await args.store.threads.get({ scope: args.scope });
  if (!thread) return empty;
  const { store, scope, tokenizer } = args;
  const countLine = args.countLine ?? ((text: string) => tokenizer.count(text));
  let through = thread.summarizedThroughSeq ?? 0;
  let summary = thread.summary;
  const explain: ExplainEntry[] = [];

  const read = (limit: number) =>
    store.threads.listMessages({ scope, afterSeq: through, order: 'desc', limit });
  const limit = Math.min(WINDOW_READ, Math.ceil(args.maxTokens / MIN_LINE_TOKENS) + 2);
  const newestRead = await read(limit);
  let newest = visibleMessages(newestRead, args.accessLevel);
  // The latest user turn is pinned: read further back when the newest messages hold none, or when
  // the reader may not see some of them (the window may have room for older ones).
  if (
    newestRead.length === limit &&
    limit < WINDOW_READ &&
    (newest.length < newestRead.length || !newest.some((m) => m.role === 'user'))
  ) {
    newest = visibleMessages(await read(WINDOW_READ), args.accessLevel);
  }
  const recent = newest.reverse();
  // The system prompt (leading system messages) stays pinned even once summarised or not read.
  const systemPrompt =
    recent[0] !== undefined && recent[0].seq === 1
      ? []
      : (await store.threads.listMessages({ scope, order: 'asc', limit: 20 })).filter(
          (m, i, all) =>
            m.role === 'system' &&
            all.slice(0, i).every((p) => p.role === 'system') &&
            messageAccessLevel(m) <= args.accessLevel,
        );
  const systemIds = new Set(systemPrompt.map((m) => m.id));
  const lines = new Map<string, string>();
  const lineTokens = (m: MessageRecord) => {
    let line = lines.get(m.id);
    if (line === undefined) {
      line = renderMessage(m);
      lines.set(m.id, line);
    }
    return line === '' ? 0 : countLine(line) + LINE_OVERHEAD;
  };
  const summaryBudget = Math.max(32, Math.floor(args.maxTokens / 2));
  const summaryTokens = (s: string | undefined) =>
    args.withSummary && s ? Math.min(summaryBudget, tokenizer.count(s)) + LINE_OVERHEAD : 0;

  // Messages older than the newest read are out of the window whatever the budget.
  const toFold: MessageRecord[] = [];
  const oldestRead = recent[0]?.seq;
  if (oldestRead !== undefined && oldestRead > through + 1) {
    let after = through;
    while (toFold.length < MAX_FOLD) {
      const page = await store.threads.listMessages({
        scope,
        afterSeq: after,
        beforeSeq: oldestRead,
        order: 'asc',
        limit: Math.min(1000, MAX_FOLD - toFold.length),
      });
      if (page.length === 0) break;
      toFold.push(...page.filter((m) => !systemIds.has(m.id)));
      after = page[page.length - 1]!.seq;
    }
  }

  const candidates = [...systemPrompt.filter((m) => !recent.some((r) => r.id === m.id)), ...recent];
  const selectWithin = (reserve: number) =>
    selectWorkingWindow({
      messages: candidates,
      maxTokens: Math.max(0, args.maxTokens - reserve),
      countTokens: lineTokens,
    });
  let window = selectWithin(summaryTokens(summary));
  if (args.withSummary && summary === undefined && (window.evicted.length > 0 || toFold.length > 0)) {
    // A summary is about to be written: leave room for it.
    window = selectWithin(summaryBudget + LINE_OVERHEAD);
  }
  // Fold only a contiguous run from `through`: stop at the first message still in the window.
  const firstKept = window.kept.find(
    (m) => !window.pinned.has(m.id) || window.pinned.get(m.id) !== 'system_prompt',
  );
  const evicted = window.evicted.filter(
    (m) => m.seq > through && (firstKept === undefined || m.seq < firstKept.seq),
  );
  if (toFold.length + evicted.length < MAX_FOLD) toFold.push(...evicted);
  const foldable = toFold.filter((m) => m.role !== 'system' || !window.pinned.has(m.id));
  // The summary is the thread's, read by every reader: restricted messages never go into it (they
  // stay findable as episodes at their level). Folding still moves past them.
  const fold = visibleMessages(foldable, 0);
  const foldThrough = Math.max(through, ...foldable.map((m) => m.seq));

  if (foldable.length > 0) {
    const facts = fold.length > 0 ? await factsFromMessages(store, scope, fold) : [];
    for (let i = 0; i < fold.length; i += FOLD_CHUNK) {
      const chunk = fold.slice(i, i + FOLD_CHUNK);
      const result = await foldIntoSummary({
        summarizer: args.summarizer,
        tokenizer,
        ...(summary === undefined ? {} : { previousSummary: summary }),
        evicted: chunk,
        facts,
        maxTokens: summaryBudget,
      });
      summary = result.summary;
      through = chunk[chunk.length - 1]!.seq;
      const described = result.issues
        .slice(0, 5)
        .map((issue) =>
          issue.problem === 'missing'
            ? `dropped "${issue.literal}"`
            : `hedged "${issue.literal}" as "${issue.hedge}"`,
        );
      const problems =
        result.issues.length > 5 ? [...described, `${result.issues.length - 5} more`] : described;
      explain.push({
        layer: 'summary',
        id: `fold:${chunk[0]!.seq}-${through}`,
        tokens: 0,
        reason: result.accepted
          ? `folded ${chunk.length} evicted message(s) with ${args.summarizer.id}; all ${result.mustKeep.length} protected literal(s) kept`
          : `summary from ${args.summarizer.id} rejected (${result.error ? `it failed: ${result.error}` : problems.join(', ')}); kept the previous summary plus an extractive fallback holding every literal`,
        included: result.accepted,
      });
    }
    through = foldThrough;
    if (summary !== undefined && summary.length > LIMITS.maxTextChars) {
      // Only reachable when rejected summaries pile up literal lists: keep the newest part.
      summary = summary.slice(summary.length - LIMITS.maxTextChars);
      summary = summary.slice(summary.indexOf('\n') + 1);
      explain.push({
        layer: 'summary',
        id: 'summary-limit',
        tokens: 0,
        reason: `summary cut to the newest ${LIMITS.maxTextChars} characters (the stored text limit)`,
        included: true,
      });
    }
    await store.threads.update({
      scope,
      patch: { ...(summary === undefined ? {} : { summary }), summarizedThroughSeq: through },
      at: args.clock.now(),
    });
    for (const m of evicted) {
      explain.push({
        layer: 'working',
        id: m.id,
        tokens: 0,
        reason: 'evicted from the working window; folded into the summary',
        included: false,
      });
    }
  }

  // A message with nothing to show (no text, no tool call) stays out of the window.
  const kept = window.kept.filter(
    (m) => (m.seq > through || window.pinned.has(m.id)) && lines.get(m.id) !== '',
  );
  const tokens = new Map<string, number>();
  for (const m of kept) {
    const t = window.tokens.get(m.id) ?? lineTokens(m);
    tokens.set(m.id, t);
    const pin = window.pinned.get(m.id);
    explain.push({
      layer: 'working',
      id: m.id,
      tokens: t,
      reason:
        pin === 'system_prompt'
          ? 'pinned: system prompt'
          : pin
            ? 'pinned: latest user turn'
            : 'recent message',
      included: true,
    });
  }
  return {
    messages: kept,
    lines,
    tokens,
    pinned: window.pinned,
    ...(args.withSummary && summary ? { summary } : {}),
    summaryBudget,
    explain,
  };
}

/** Facts (any version) whose provenance message is one of `messages`, for the fidelity guard. */
async function factsFromMessages(
  store: Store,
  scope: Scope,
  messages: MessageRecord[],
): Promise<FactRecord[]> {
  const ids = new Set(messages.map((m) => m.id));
  const oldest = Math.min(...messages.map((m) => m.createdAt));
  const out: FactRecord[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const result = await store.facts.find({
      scope,
      status: ['active', 'stale', 'superseded'],
      limit: 1000,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const fact of result.items)
      if (fact.provenance.messageId && ids.has(fact.provenance.messageId)) out.push(fact);
    cursor = result.nextCursor;
    const last = result.items[result.items.length - 1];
    if (cursor === undefined || (last && last.createdAt < oldest)) break;
  }
  return out;
}
