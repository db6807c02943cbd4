import type { MemoryContext, ObserveResult, Scope } from '@strata-memory/core';
import { type FactAbout, showAnswer } from './answers.ts';
import type { Person } from './cast.ts';
import { describeObservation } from './decisions.ts';
import type { Demo } from './demo.ts';
import { decided, detail, label, plural, quote, said, sessionHeader } from './print.ts';

/**
 * One conversation of one person with the agent, as a thread in Strata. The agent loop is the
 * one from core's README: before answering, `recall` what the model should know; after, `observe`
 * the turn. There is no model here, so the demo prints what the model would be told instead of
 * an answer.
 *
 * Message ids are stable (`<thread>:<n>`), so replaying the script on an existing database
 * observes nothing twice.
 */
export interface Session {
  readonly person: Person;
  readonly scope: Scope;
  /** The person states something; prints what Strata decided. `quiet` prints only notable decisions. */
  says(text: string, options?: { quiet?: boolean }): Promise<ObserveResult>;
  /**
   * The person asks; prints the recalled memory block and its cost, the facts among it that answer
   * the question (when the scene names them), then observes the question.
   */
  asks(question: string, answeredBy?: FactAbout[]): Promise<MemoryContext>;
}

export function openSession(demo: Demo, person: Person, thread: string): Session {
  const scope: Scope = { ...person.scope, threadId: thread };
  let turns = 0;
  sessionHeader(`${demo.clock.today()} · ${person.name} (${person.title}) · thread "${thread}"`);

  function addToTranscript(text: string): void {
    const lines = demo.transcripts.get(person.id) ?? [];
    lines.push(`${person.name}: ${text}`);
    demo.transcripts.set(person.id, lines);
  }

  async function observe(text: string, quiet: boolean): Promise<ObserveResult> {
    turns += 1;
    demo.clock.laterMinutes(2);
    const result = await demo.memory.observe(scope, {
      id: `${thread}:${turns}`,
      role: 'user',
      content: text,
    });
    for (const decision of describeObservation(result)) {
      if (!quiet || !decision.routine) decided(decision.text);
    }
    return result;
  }

  return {
    person,
    scope,
    async says(text, options = {}) {
      said(person.name, text);
      addToTranscript(text);
      return observe(text, options.quiet ?? false);
    },
    async asks(question, answeredBy) {
      said(person.name, question);
      addToTranscript(question);
      const context = await demo.memory.recall(scope, { query: question, budget: { tokens: demo.budget } });
      const history = fullHistoryTokens(demo, person);
      historyAtRecall.set(context, history);
      showContext(demo, context, history);
      if (answeredBy) showAnswer(context, answeredBy);
      await observe(question, false);
      return context;
    },
  };
}

/** What an agent without memory would resend: everything the person said this run. */
export function fullHistoryTokens(demo: Demo, person: Person): number {
  return demo.memory.tokenizer.count((demo.transcripts.get(person.id) ?? []).join('\n'));
}

/** The full history's tokens when each recall of `Session.asks` ran. */
const historyAtRecall = new WeakMap<MemoryContext, number>();

/**
 * Claims that the block costs no more than what it replaces, for recalls (made by
 * `Session.asks`) whose full history fits the budget: an agent could then simply resend the
 * history, so memory must not cost more. Only on a fresh run: a re-run's memory knows more than
 * this run's history.
 */
export function claimNoLargerThanHistory(demo: Demo, contexts: readonly MemoryContext[]): boolean {
  if (demo.resumed) {
    detail('not compared with the full history: memory also holds what earlier runs said');
    return true;
  }
  const costs = contexts.map((context) => ({ block: context.tokens, history: historyAtRecall.get(context) }));
  const failing = costs.filter(
    ({ block, history }) => history === undefined || history > demo.budget || block > history,
  );
  const shown = failing.length > 0 ? failing : costs;
  return demo.checks.claim(
    `the full history fits the ${demo.budget}-token budget and the block the agent is told is not larger than it` +
      (contexts.length > 1 ? ` (${contexts.length} recalls)` : ''),
    contexts.length > 0 && failing.length === 0,
    shown
      .map(({ block, history }) => `block ${block} tokens, full history ${history ?? '?'} tokens`)
      .join('; '),
  );
}

/** The rendered block, its token count next to the full history's, and a one-line explain(). */
export function showContext(demo: Demo, context: MemoryContext, fullHistory?: number): void {
  const cost =
    fullHistory === undefined
      ? `${context.tokens} tokens`
      : `${context.tokens} tokens (full history would be ${fullHistory} tokens)`;
  label(`the agent is told — ${cost}, budget ${demo.budget}:`);
  quote(context.render() || '(nothing: memory is empty here)');
  detail(explainLine(context));
  // Recall folds turns that left the working window into the thread's rolling summary.
  for (const entry of context.explain()) {
    if (entry.layer === 'summary' && entry.id.startsWith('fold:'))
      decided(`while recalling: ${entry.reason}`);
  }
}

/** `explain(): in — 3 facts, 4 episodes, 2 recent messages; left out — 7 (token budget: 5)` */
export function explainLine(context: MemoryContext): string {
  const entries = context.explain();
  const included = new Map<string, number>();
  for (const entry of entries) {
    if (entry.included) included.set(entry.layer, (included.get(entry.layer) ?? 0) + 1);
  }
  const names: Record<string, string> = {
    facts: 'fact',
    episodes: 'episode',
    graph: 'graph path',
    working: 'recent message',
    summary: 'summary note',
  };
  const parts = [...included].map(([layer, n]) => plural(n, names[layer] ?? layer));
  const left = entries.filter((e) => !e.included && e.tokens > 0);
  const overBudget = left.filter((e) => e.reason.includes('token budget')).length;
  return `explain(): in — ${parts.join(', ') || 'nothing'}; left out — ${plural(left.length, 'candidate')}, ${overBudget} for the token budget`;
}
