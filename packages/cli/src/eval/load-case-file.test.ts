import { fileURLToPath } from 'node:url';
import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { loadCaseFile, parseCaseFile } from './load-case-file.ts';

const examples = fileURLToPath(new URL('../../examples/eval/', import.meta.url));

/** The problems `parseCaseFile` reports for a text, as `details.issues`. */
function problemsOf(
  text: string,
): Array<{ path: string; caseName?: string; line?: number; message: string }> {
  try {
    parseCaseFile(text, 'cases.yaml');
  } catch (error) {
    expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
    return (error as StrataError).details?.issues as Array<{ path: string; message: string }>;
  }
  throw new Error('expected the case file to be refused');
}

const valid = `
defaults:
  scope: org=acme,user=maria
  start: 2026-03-02T09:00:00Z
cases:
  - name: one
    setup:
      - content: Supplier X's lead time is 45 days.
      - content: No, it is 30 days.
        after: 3d
    recall:
      query: lead time?
    expect:
      contains: 30 days
`;

describe('loadCaseFile', () => {
  it('reads the shipped examples', () => {
    const cases = loadCaseFile(`${examples}cases.yaml`);
    expect(cases.cases.length).toBeGreaterThanOrEqual(5);
    expect(loadCaseFile(`${examples}broken-cases.yaml`).cases.length).toBeGreaterThan(0);
  });

  it('reads scopes, times and durations into what the engine takes', () => {
    const file = parseCaseFile(valid, 'cases.yaml');
    expect(file.defaults?.scope).toEqual({ orgId: 'acme', userId: 'maria' });
    expect(file.defaults?.start).toBe(Date.parse('2026-03-02T09:00:00Z'));
    expect(file.cases[0]?.setup[1]?.after).toBe(3 * 86_400_000);
    expect(file.cases[0]?.setup[0]?.role).toBe('user');
    expect(file.cases[0]?.expect.contains).toEqual(['30 days']);
  });

  it('suggests the key an unknown one most likely meant, naming the case and the field', () => {
    const problems = problemsOf(valid.replace('contains: 30 days', 'notcontains: 30 days'));
    expect(problems).toEqual([
      expect.objectContaining({
        path: 'cases[0].expect',
        caseName: 'one',
        line: 14,
        message: 'unknown key "notcontains"; did you mean "notContains"?',
      }),
    ]);
  });

  it('names a missing field, a bad duration and a bad scope, each at its line', () => {
    const text = valid
      .replace('query: lead time?', 'budget: 500')
      .replace('after: 3d', 'after: 3 parsecs')
      .replace('scope: org=acme,user=maria', 'scope: { org: acme, usr: maria }');
    const problems = problemsOf(text);
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['defaults.scope', 'unknown key "usr"; did you mean "user"?'],
      ['cases[0].setup[1].after', '"3 parsecs" is not a duration; write e.g. 90m, 2h, 3d or 1w'],
      ['cases[0].recall.query', 'is required'],
    ]);
    expect(problems.map((p) => p.line)).toEqual([3, 10, 12]);
  });

  it('refuses a case with no scope to inherit, and an action with two verbs', () => {
    const text = valid
      .replace('  scope: org=acme,user=maria\n', '')
      .replace('    recall:', '    actions:\n      - approve: 90 days\n        reject: 90 days\n    recall:');
    const problems = problemsOf(text);
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['cases[0].setup[0].scope', 'needs a scope (here, in the case, or in defaults)'],
      ['cases[0].setup[1].scope', 'needs a scope (here, in the case, or in defaults)'],
      ['cases[0].actions[0]', 'one action per list item; this one has approve and reject'],
      ['cases[0].actions[0].approve.scope', 'needs a scope (here, in the case, or in defaults)'],
      ['cases[0].actions[0].reject.scope', 'needs a scope (here, in the case, or in defaults)'],
      ['cases[0].recall.scope', 'needs a scope (here, in the case, or in defaults)'],
    ]);
  });

  it('reports a YAML syntax error with its line', () => {
    const problems = problemsOf('cases:\n  - name: a\n    setup: [\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(4);
  });

  it('refuses an unreadable file as bad input', () => {
    expect(() => loadCaseFile(`${examples}no-such-file.yaml`)).toThrow(/cannot read the case file/);
  });
});
