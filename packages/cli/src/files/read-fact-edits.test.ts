import { type MemorySnapshot, type ScopeSnapshot, StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { readFactEdits } from './read-fact-edits.ts';
import { renderScopeMarkdown } from './render-scope-markdown.ts';
import { scopeFilePath } from './scope-file-names.ts';

const provenance = { source: 'extraction' as const, extractor: 'rules@1', at: 1_767_258_000_000 };
const fact = (id: string, version: number, value: unknown, status: 'active' | 'superseded') => ({
  id,
  entityType: 'supplier',
  entityId: 'supplier x',
  key: 'lead time',
  value: value as string,
  confidence: 0.9,
  status,
  validFrom: 1_767_258_000_000 + version,
  ...(status === 'superseded' ? { validTo: 1_767_258_000_002, supersededBy: 'f2' } : {}),
  version,
  lastConfirmedAt: 1_767_258_000_000,
  accessLevel: 0,
  provenance,
  createdAt: 1_767_258_000_000 + version,
  metadata: {},
});
const section: ScopeSnapshot = {
  scope: { orgId: 'acme', userId: 'maria' },
  episodes: [],
  facts: [fact('f1', 1, '45 days', 'superseded'), fact('f2', 2, { days: 30 }, 'active')],
  nodes: [],
  edges: [],
  state: [],
  ledger: [],
  review: [],
  audit: [],
};
const snapshot: MemorySnapshot = { format: 'strata-memory', version: 1, scopes: [section] };
const markdown = renderScopeMarkdown(section, snapshot);
const edit = (from: string, to: string) => markdown.replace(from, to);

function errorOf(fn: () => unknown): StrataError {
  try {
    fn();
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('reading fact edits from a scope Markdown file', () => {
  it('finds nothing changed in the file as written, the current value editable as JSON', () => {
    expect(markdown).toContain('- lead time: {"days":30} <!-- fact:f2 -->');
    expect(markdown).toContain('superseded: "45 days" · version 1');
    expect(readFactEdits(markdown, 'm.md', section)).toEqual([]);
    // Key order inside an object value does not count as an edit.
    expect(readFactEdits(edit('{"days":30}', '{ "days": 30 }'), 'm.md', section)).toEqual([]);
  });

  it('returns a changed value with its file and line', () => {
    const text = edit('{"days":30}', '"21 days"');
    const line = text.split('\n').findIndex((l) => l.startsWith('- lead time:')) + 1;
    expect(readFactEdits(text, 'm.md', section)).toEqual([
      { fact: section.facts[1], value: '21 days', file: 'm.md', line },
    ]);
  });

  it.each([
    ['a value that is not JSON', '- lead time: {"days":30}', '- lead time: 21 days', 'is not JSON'],
    ['a lost marker', '{"days":30} <!-- fact:f2 -->', '{"days":30}', 'marker'],
    ['an unknown id', '<!-- fact:f2 -->', '<!-- fact:f9 -->', 'not a current fact'],
    ['a superseded id', '<!-- fact:f2 -->', '<!-- fact:f1 -->', 'not a current fact'],
    [
      'a renamed key',
      '- lead time: {"days":30}',
      '- delivery: {"days":30}',
      'must start with "- lead time: "',
    ],
  ])('refuses %s, naming the file and line', (_name, from, to, message) => {
    const text = edit(from, to);
    const line = text.split('\n').findIndex((l) => l.includes(to)) + 1;
    const error = errorOf(() => readFactEdits(text, 'memory/m.md', section));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain(`memory/m.md:${line}: `);
    expect(error.message).toContain(message);
  });
});

describe('scope file names', () => {
  it('nests one folder per level and keeps every id a single safe segment', () => {
    expect(scopeFilePath({ orgId: 'acme' })).toBe('org=acme.md');
    expect(scopeFilePath({ orgId: 'acme', userId: 'maria', threadId: 't1' })).toBe(
      'org=acme/user=maria/thread=t1.md',
    );
    expect(scopeFilePath({ userId: '../etc', agentId: 'a/b*c' })).toBe('user=%2E.%2Fetc/agent=a%2Fb%2Ac.md');
  });
});
