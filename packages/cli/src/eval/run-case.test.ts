import { memoryStore } from '@strata-memory/core';
import { testEmbedder } from '@strata-memory/core/test';
import { describe, expect, it } from 'vitest';
import type { StrataConfig } from '../open-memory.ts';
import { parseCaseFile } from './load-case-file.ts';
import { runCase } from './run-case.ts';

/** Runs the one case of a YAML text on the in-memory reference store; counts the stores disposed. */
async function run(yaml: string, config: StrataConfig = {}) {
  const file = parseCaseFile(yaml, 'cases.yaml');
  const [evalCase] = file.cases;
  if (!evalCase) throw new Error('no case');
  let disposed = 0;
  const result = await runCase({
    evalCase,
    defaults: file.defaults,
    config,
    embedder: testEmbedder(),
    fresh: async () => ({
      store: memoryStore(),
      dispose: async () => {
        disposed += 1;
      },
    }),
  });
  return { result, disposed };
}

const header = `
defaults:
  scope: org=acme,user=maria
  start: 2026-03-02T09:00:00Z
cases:
  - name: case
`;

describe('runCase', () => {
  it('passes a correction that wins, with turns on the days the case gives', async () => {
    const { result, disposed } = await run(`${header}
    setup:
      - content: Supplier X's lead time is 45 days.
      - after: 3d
        content: No, the lead time is actually 30 days, not 45.
        principal: { id: tom }
    recall:
      query: What's Supplier X's lead time?
    expect:
      contains: "lead time: 30 days (tom, 2026-03-05)"
      notContains: "lead time: 45 days"
      facts:
        - { entity: Supplier X, key: lead time, value: 30 days, status: active }
`);
    expect(result.failures).toEqual([]);
    expect(result).toMatchObject({ passed: true, checks: 3 });
    expect(disposed).toBe(1);
  });

  it('explains a wrong fact with its history and the pending review item', async () => {
    const { result } = await run(`${header}
    setup:
      - content: Construction suppliers are paid net 60.
      - content: What if we extended terms to 90 days?
    recall:
      query: payment terms for construction suppliers?
    expect:
      contains: "payment terms: 90 days"
      facts:
        - { entity: construction suppliers, key: payment terms, value: 90 days }
      review: [lead time]
`);
    expect(result.passed).toBe(false);
    const [contains, fact, review] = result.failures;
    expect(contains?.details[0]).toBe(
      'waiting in the review queue: construction suppliers · payment terms: 90 days (hypothetical) "What if we extended terms to 90 days?"',
    );
    expect(fact).toMatchObject({
      expectation: 'fact',
      actual: { value: 'net 60', status: 'active' },
      message: 'expected construction suppliers · payment terms = "90 days"; the current value is "net 60"',
    });
    expect(fact?.details.join('\n')).toContain('v1 "net 60" active');
    expect(fact?.details.join('\n')).toContain(
      'pending review: construction suppliers · payment terms: 90 days',
    );
    expect(fact?.explain.map((e) => e.layer)).toEqual(['facts']);
    expect(review).toMatchObject({
      expectation: 'review',
      message: 'no pending review item contains "lead time"',
    });
  });

  it('shows the explain() entries of items that put a forbidden text in the block', async () => {
    const { result } = await run(`${header}
    setup:
      - content: Dell's quote is $4,200 for the laptops.
    recall:
      query: What did Dell quote?
    expect:
      notContains: "$4,200"
      tokensAtMost: 5
`);
    const [notContains, tokens] = result.failures;
    expect(notContains?.expectation).toBe('notContains');
    expect(notContains?.explain.length).toBeGreaterThan(0);
    expect(notContains?.explain.every((e) => e.included && e.text?.includes('$4,200'))).toBe(true);
    expect(tokens).toMatchObject({ expectation: 'tokensAtMost', expected: 5, actual: result.recall?.tokens });
  });

  it('approves the one review item an action names, and fails the case when none matches', async () => {
    const setup = `${header}
    setup:
      - content: Construction suppliers are paid net 60.
      - content: What if we extended terms to 90 days?
    actions:
      - approve: TEXT
    recall:
      query: payment terms for construction suppliers?
    expect:
      facts:
        - { entity: construction suppliers, key: payment terms, value: 90 days }
`;
    const approved = await run(setup.replace('TEXT', '90 days'));
    expect(approved.result.passed).toBe(true);
    const unmatched = await run(setup.replace('TEXT', '120 days'));
    expect(unmatched.result.passed).toBe(false);
    expect(unmatched.result.error).toMatchObject({ step: 'actions[0] (approve)', code: 'not_found' });
    expect(unmatched.result.error?.message).toContain('no pending review item contains "120 days"');
    expect(unmatched.result.error?.message).toContain('payment terms: 90 days');
    expect(unmatched.disposed).toBe(1);
  });

  it('rejects, remembers and consolidates as the actions say', async () => {
    const { result } = await run(`${header}
    setup:
      - content: Construction suppliers are paid net 60.
      - content: What if we extended terms to 90 days?
      - content: Supplier Z's lead time is 10 days.
    actions:
      - reject: 90 days
      - remember: { entity: Supplier Q, key: lead time, value: 12 days, confidence: 0.5 }
      - remember: { entity: Supplier R, key: lead time, value: 14 days }
      - advance: 120d
      - consolidate: true
    recall:
      query: lead times and payment terms?
    expect:
      contains: ["lead time: 14 days", "net 60"]
      review: ["lead time: 12 days", "90 days"]
      facts:
        - { entity: Supplier Z, key: lead time, value: 10 days, status: stale }
        - { entity: Supplier Q, key: lead time, absent: true }
`);
    expect(result.checks).toBe(6);
    expect(result.failures.map((f) => [f.expectation, f.message, f.details])).toEqual([
      [
        'review',
        'no pending review item contains "90 days"',
        ['pending: supplier q · lead time: 12 days (low confidence)'],
      ],
    ]);
  });

  it("runs with the user's policy: a longer staleAfterDays keeps a 100-day-old fact active", async () => {
    const yaml = `${header}
    setup:
      - content: Supplier Y's lead time is 21 days.
    actions:
      - advance: 100d
    recall:
      query: Supplier Y lead time?
    expect:
      facts:
        - { entity: Supplier Y, key: lead time, value: 21 days, status: stale }
`;
    expect((await run(yaml)).result.passed).toBe(true);
    const longer = await run(yaml, { policy: { staleAfterDays: 365 } });
    expect(longer.result.failures[0]?.message).toBe(
      'expected Supplier Y · lead time to be stale; it is active',
    );
  });

  it('refuses an invalid config and leaves no store behind', async () => {
    let disposed = 0;
    let closed = 0;
    const file = parseCaseFile(
      `${header}
    setup: [{ content: hello }]
    recall: { query: hello }
    expect: { contains: hello }
`,
      'cases.yaml',
    );
    const store = memoryStore();
    const close = store.close.bind(store);
    store.close = async () => {
      closed += 1;
      await close();
    };
    const running = runCase({
      evalCase: file.cases[0] as NonNullable<(typeof file.cases)[0]>,
      defaults: file.defaults,
      config: { policy: { reviewThreshhold: 0.5 } as never },
      embedder: undefined,
      fresh: async () => ({
        store,
        dispose: async () => {
          disposed += 1;
        },
      }),
    });
    await expect(running).rejects.toMatchObject({ code: 'invalid_input' });
    expect({ closed, disposed }).toEqual({ closed: 1, disposed: 1 });
  });

  it('keeps another scope out, and forget erases a user', async () => {
    const { result } = await run(`${header}
    setup:
      - scope: org=acme,user=tom
        content: Dell's quote is $4,200 for the laptops.
      - content: Construction suppliers are paid net 60.
    actions:
      - forget: org=acme,user=maria
    recall:
      query: quotes and payment terms?
    expect:
      notContains: [Dell, net 60]
      facts:
        - { entity: Dell, key: quote, absent: true }
        - { entity: Dell, key: quote, absent: true, scope: "org=acme,user=tom" }
`);
    expect(result.failures.map((f) => f.message)).toEqual([
      'expected no current Dell · quote; it is "$4,200 for the laptops"',
    ]);
    expect(result.checks).toBe(4);
  });
});
