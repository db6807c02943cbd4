import type { FactRecord } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { parseWorkingMemory, renderJson, renderMarkdown } from './working-memory-text.ts';

function fact(key: string, value: FactRecord['value'], createdAt = 1): FactRecord {
  return {
    id: `fact-${key}`,
    scope: { userId: 'ada' },
    entityType: 'user',
    entityId: 'ada',
    key,
    value,
    confidence: 1,
    status: 'active',
    validFrom: createdAt,
    version: 1,
    lastConfirmedAt: createdAt,
    accessLevel: 0,
    provenance: { source: 'api', at: createdAt },
    createdAt,
    metadata: {},
  };
}

describe('working memory text', () => {
  it('reads Markdown key: value lines and skips headings and blank template lines', () => {
    expect(
      parseWorkingMemory(
        '# User Information\n- **First Name**: Ada\n* Location: Lisbon\n1. __Role__: admin\n- **Goals**: \nfree text line',
      ),
    ).toEqual([
      { key: 'First Name', value: 'Ada' },
      { key: 'Location', value: 'Lisbon' },
      { key: 'Role', value: 'admin' },
    ]);
  });

  it('reads a JSON object as one patch per top-level key, null included', () => {
    expect(parseWorkingMemory('{"name":"Ada","city":null,"prefs":{"tea":true}}')).toEqual([
      { key: 'name', value: 'Ada' },
      { key: 'city', value: null },
      { key: 'prefs', value: { tea: true } },
    ]);
  });

  it('renders into a template, listing facts the template does not name after it', () => {
    const facts = [fact('name', 'Ada'), fact('favourite tea', 'Assam'), fact('age', 36)];
    expect(renderMarkdown(facts, '\n# Profile\n- **Name**: \n- **Location**:\n')).toBe(
      '# Profile\n- **Name**: Ada\n- **Location**:\n- **favourite tea**: Assam\n- **age**: 36',
    );
    expect(renderMarkdown([fact('name', 'Ada')])).toBe('# User Information\n- **name**: Ada');
    expect(JSON.parse(renderJson(facts))).toEqual({ name: 'Ada', 'favourite tea': 'Assam', age: 36 });
  });
});
