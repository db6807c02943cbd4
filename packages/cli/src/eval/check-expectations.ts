import type { ExplainEntry, FactRecord, Memory, MemoryContext, Principal, Scope } from '@strata-memory/core';
import { accessLevelOf } from '@strata-memory/core/internals';
import type { EvalCase, FactExpectation } from './case-file-schema.ts';
import { matchingItems, reviewItemText, textOf } from './review-match.ts';

/** An `explain()` entry as a failure shows it, with the item's text when it can be read back. */
export interface ExplainLine {
  layer: ExplainEntry['layer'];
  id: string;
  included: boolean;
  tokens: number;
  reason: string;
  final?: number;
  text?: string;
}

/** One expectation that did not hold. */
export interface Failure {
  expectation: 'contains' | 'notContains' | 'fact' | 'review' | 'tokensAtMost';
  expected: unknown;
  actual: unknown;
  /** One line: what was expected and what was there instead. */
  message: string;
  /** What else a person needs to see: a fact's history, the pending review items, matching block lines. */
  details: string[];
  /** The recall's `explain()` entries that bear on it. */
  explain: ExplainLine[];
}

const MAX_EXPLAIN = 5;

/** Checks a case's expectations against its recall and the memory it ran on. */
export async function checkExpectations(args: {
  memory: Memory;
  context: MemoryContext;
  expect: EvalCase['expect'];
  scope: Scope;
  scopeOf: (scope: Scope | undefined) => Scope;
  principal: Principal | undefined;
}): Promise<{ checks: number; failures: Failure[] }> {
  const { memory, context, expect, scope, principal } = args;
  const block = context.render();
  const lowerBlock = block.toLowerCase();
  const explainLines = await readableExplain(memory, context, scope, principal);
  const failures: Failure[] = [];
  let checks = 0;

  const pending = await memory.review.list(scope, {
    status: ['pending'],
    ...(principal ? { principal } : {}),
  });
  for (const text of expect.contains ?? []) {
    checks += 1;
    if (lowerBlock.includes(text.toLowerCase())) continue;
    const waiting = matchingItems(pending, text).map(
      (item) => `waiting in the review queue: ${reviewItemText(item)}`,
    );
    const candidates = explainLines.filter((e) => !e.included && e.tokens > 0);
    const mentioning = candidates.filter((e) => e.text?.toLowerCase().includes(text.toLowerCase()));
    failures.push({
      expectation: 'contains',
      expected: text,
      actual: null,
      message: `the block does not contain "${text}"`,
      details: [
        ...waiting,
        mentioning.length > 0
          ? `the recall left out ${mentioning.length} candidate(s) whose text contains it:`
          : candidates.length > 0
            ? 'no candidate the recall considered contains it; the best it left out:'
            : 'no candidate the recall considered contains it, and it left none out',
      ],
      explain: (mentioning.length > 0 ? mentioning : candidates).slice(0, MAX_EXPLAIN),
    });
  }

  for (const text of expect.notContains ?? []) {
    checks += 1;
    const needle = text.toLowerCase();
    if (!lowerBlock.includes(needle)) continue;
    const lines = block.split('\n').filter((line) => line.toLowerCase().includes(needle));
    failures.push({
      expectation: 'notContains',
      expected: text,
      actual: lines,
      message: `the block contains "${text}"`,
      details: lines.map((line) => `in the block: ${line.trim()}`),
      explain: explainLines.filter((e) => e.included && e.text?.toLowerCase().includes(needle)),
    });
  }

  for (const expected of expect.facts ?? []) {
    checks += 1;
    const failure = await checkFact(memory, args.scopeOf(expected.scope), expected, principal, explainLines);
    if (failure) failures.push(failure);
  }

  if (expect.review && expect.review.length > 0) {
    for (const text of expect.review) {
      checks += 1;
      if (matchingItems(pending, text).length > 0) continue;
      failures.push({
        expectation: 'review',
        expected: text,
        actual: pending.map(reviewItemText),
        message: `no pending review item contains "${text}"`,
        details:
          pending.length === 0
            ? ['the review queue is empty at this scope']
            : pending.map((item) => `pending: ${reviewItemText(item)}`),
        explain: [],
      });
    }
  }

  if (expect.tokensAtMost !== undefined) {
    checks += 1;
    if (context.tokens > expect.tokensAtMost) {
      failures.push({
        expectation: 'tokensAtMost',
        expected: expect.tokensAtMost,
        actual: context.tokens,
        message: `the block has ${context.tokens} tokens, more than ${expect.tokensAtMost}`,
        details: ['the largest items in it:'],
        explain: explainLines
          .filter((e) => e.included)
          .sort((a, b) => b.tokens - a.tokens)
          .slice(0, MAX_EXPLAIN),
      });
    }
  }
  return { checks, failures };
}

async function checkFact(
  memory: Memory,
  scope: Scope,
  expected: FactExpectation,
  principal: Principal | undefined,
  explainLines: ExplainLine[],
): Promise<Failure | undefined> {
  const key = {
    entity: expected.entity,
    key: expected.key,
    ...(expected.entityType ? { entityType: expected.entityType } : {}),
  };
  const options = principal ? { principal } : {};
  const current = await memory.facts.get(scope, key, options);
  const label = `${expected.entity} · ${expected.key}`;
  const problem = factProblem(label, expected, current);
  if (!problem) return undefined;
  const history = await memory.facts.history(scope, key, options);
  const pending = await memory.review.list(scope, { status: ['pending'], ...options });
  const reviewLines = matchingItems(pending, expected.key).map(
    (item) => `pending review: ${reviewItemText(item)}`,
  );
  return {
    expectation: 'fact',
    expected: { entity: expected.entity, key: expected.key, ...pick(expected) },
    actual: current ? { value: current.value, status: current.status, confidence: current.confidence } : null,
    message: problem,
    details: [
      ...(history.length === 0 ? [`no version of ${label} is visible here`] : history.map(describeVersion)),
      ...reviewLines,
    ],
    explain: current ? explainLines.filter((e) => e.id === current.id) : [],
  };
}

function factProblem(
  label: string,
  expected: FactExpectation,
  current: FactRecord | null,
): string | undefined {
  if (expected.absent) {
    return current ? `expected no current ${label}; it is "${textOf(current.value)}"` : undefined;
  }
  const want = textOf(expected.value);
  if (!current) return `expected ${label} = "${want}"; there is no current value`;
  if (textOf(current.value).trim().toLowerCase() !== want.trim().toLowerCase()) {
    return `expected ${label} = "${want}"; the current value is "${textOf(current.value)}"`;
  }
  if (expected.status && current.status !== expected.status) {
    return `expected ${label} to be ${expected.status}; it is ${current.status}`;
  }
  if (expected.confidenceAtLeast !== undefined && current.confidence < expected.confidenceAtLeast) {
    return `expected ${label} with confidence at least ${expected.confidenceAtLeast}; it has ${current.confidence}`;
  }
  return undefined;
}

function pick(expected: FactExpectation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of ['value', 'absent', 'status', 'confidenceAtLeast'] as const) {
    if (expected[field] !== undefined) out[field] = expected[field];
  }
  return out;
}

/** `v1 "45 days" superseded — extraction by maria on 2026-03-02: "Supplier X's lead time is 45 days."` */
function describeVersion(fact: FactRecord): string {
  const who = fact.provenance.principalId ? ` by ${fact.provenance.principalId}` : '';
  const evidence = typeof fact.metadata.evidence === 'string' ? `: "${fact.metadata.evidence}"` : '';
  const correction = fact.metadata.correction === true ? ', a correction' : '';
  return `v${fact.version} "${textOf(fact.value)}" ${fact.status} (confidence ${fact.confidence}${correction}) — ${fact.provenance.source}${who} on ${day(fact.validFrom)}${evidence}`;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The recall's `explain()` entries with the text of each fact and episode read back (included items
 * from the context, left-out ones from the store at the reader's level), best first.
 */
async function readableExplain(
  memory: Memory,
  context: MemoryContext,
  scope: Scope,
  principal: Principal | undefined,
): Promise<ExplainLine[]> {
  const entries = context.explain();
  const texts = new Map(context.items.map((item) => [item.id, item.text]));
  const missing = (layer: string) =>
    entries.filter((e) => e.layer === layer && !texts.has(e.id) && e.tokens > 0).map((e) => e.id);
  const accessLevel = accessLevelOf(principal, memory.policy);
  const episodeIds = missing('episodes');
  if (episodeIds.length > 0) {
    for (const episode of await memory.store.episodes.get({ scope, ids: episodeIds, accessLevel })) {
      texts.set(episode.id, episode.text);
    }
  }
  const factIds = missing('facts');
  if (factIds.length > 0) {
    for (const fact of await memory.store.facts.get({ scope, ids: factIds, accessLevel })) {
      texts.set(fact.id, `${fact.entityId} · ${fact.key}: ${textOf(fact.value)}`);
    }
  }
  return entries
    .map((e) => ({
      layer: e.layer,
      id: e.id,
      included: e.included,
      tokens: e.tokens,
      reason: e.reason,
      ...(e.scores ? { final: e.scores.final } : {}),
      ...(texts.has(e.id) ? { text: texts.get(e.id) } : {}),
    }))
    .sort((a, b) => (b.final ?? 0) - (a.final ?? 0));
}
