import { type Memory, type Scope, StrataError } from '@strata-memory/core';
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { AI_MAJOR, type ScriptedStep, scriptedModel, toolScopeSettings } from '../../test/ai-under-test.ts';
import { newMemory } from '../../test/memory-fixtures.ts';
import { type MemoryTools, memoryTools } from './memory-tools.ts';

type ToolName = keyof MemoryTools;

/** Runs one tool through `generateText`: the model calls it, the loop ends with a short answer. */
async function callTool(args: {
  memory: Memory;
  tools?: MemoryTools;
  name: ToolName;
  input: Record<string, unknown>;
  scope?: Scope;
}): Promise<{ output?: unknown; error?: unknown }> {
  const tools = args.tools ?? memoryTools({ memory: args.memory });
  const steps: ScriptedStep[] = [
    { toolCalls: [{ id: 'c1', name: args.name, input: args.input }] },
    { text: 'done' },
  ];
  const { model } = scriptedModel(steps);
  const result = await generateText({
    model,
    tools,
    stopWhen: stepCountIs(3),
    prompt: 'use the tool',
    ...(args.scope ? toolScopeSettings(args.scope) : {}),
  });
  const content = result.steps[0]!.content;
  const output = content.find((part) => part.type === 'tool-result');
  const error = content.find((part) => part.type === 'tool-error');
  return {
    ...(output ? { output: (output as { output: unknown }).output } : {}),
    ...(error ? { error: (error as { error: unknown }).error } : {}),
  };
}

describe(`memoryTools on ai ${AI_MAJOR}`, () => {
  const ana = { userId: 'ana' };
  const ben = { userId: 'ben' };

  it('remember stores a fact at the scope from the tool context', async () => {
    const memory = newMemory();
    const { output } = await callTool({
      memory,
      name: 'remember',
      input: {
        kind: 'fact',
        entityType: 'supplier',
        entity: 'Supplier X',
        key: 'lead time',
        value: '45 days',
      },
      scope: ana,
    });
    expect(output).toMatchObject({
      stored: 'fact',
      fact: { key: 'lead time', value: '45 days', version: 1 },
    });
    const fact = await memory.facts.get(ana, {
      entityType: 'supplier',
      entity: 'Supplier X',
      key: 'lead time',
    });
    expect(fact?.value).toBe('45 days');
    expect(
      await memory.facts.get(ben, { entityType: 'supplier', entity: 'Supplier X', key: 'lead time' }),
    ).toBeNull();
  });

  it('remember keeps a note as an episode that recall finds', async () => {
    const memory = newMemory();
    const { output } = await callTool({
      memory,
      name: 'remember',
      input: { kind: 'note', text: 'Ana is allergic to peanuts; never suggest satay.' },
      scope: { ...ana, threadId: 't1' },
    });
    expect(output).toMatchObject({ stored: 'note' });
    expect((output as { episodeIds: string[] }).episodeIds).toHaveLength(1);

    const recalled = await callTool({
      memory,
      name: 'recall',
      input: { query: 'peanuts allergy' },
      scope: ana,
    });
    const items = (recalled.output as { items: Array<{ text: string; reason: string; layer: string }> })
      .items;
    expect(items.some((i) => i.layer === 'episodes' && i.text.includes('peanuts'))).toBe(true);
  });

  it('remember rejects a fact without its fields as a tool input error', async () => {
    const memory = newMemory();
    const { output, error } = await callTool({
      memory,
      name: 'remember',
      input: { kind: 'fact', key: 'x' },
      scope: ana,
    });
    expect(output).toBeUndefined();
    expect(String(error)).toMatch(/a fact needs entity/);
    expect(await memory.facts.list(ana)).toEqual([]);
  });

  it('recall explains each item and stays inside the caller’s scope', async () => {
    const memory = newMemory();
    await memory.facts.remember(ana, {
      entity: 'speaker',
      entityType: 'user',
      key: 'favourite colour',
      value: 'teal',
    });
    await memory.facts.remember(ben, {
      entity: 'speaker',
      entityType: 'user',
      key: 'favourite colour',
      value: 'crimson',
    });

    const { output } = await callTool({
      memory,
      name: 'recall',
      input: { query: 'favourite colour' },
      scope: ana,
    });
    const result = output as {
      context: string;
      items: Array<{ id: string; text: string; reason: string; score: number }>;
    };
    expect(result.context).toContain('teal');
    expect(result.context).not.toContain('crimson');
    const teal = result.items.find((i) => i.text.includes('teal'));
    expect(teal?.reason.length).toBeGreaterThan(0);
    expect(typeof teal?.score).toBe('number');
    expect(result.items.some((i) => i.text.includes('crimson'))).toBe(false);
  });

  it('forget deletes an item by id only within the caller’s scope', async () => {
    const memory = newMemory();
    const { fact } = await memory.facts.remember(ben, {
      entity: 'speaker',
      entityType: 'user',
      key: 'pin',
      value: '1234',
    });
    const id = fact!.id;

    const fromAna = await callTool({ memory, name: 'forget', input: { id }, scope: ana });
    expect(fromAna.output).toEqual({ deleted: false });
    expect(await memory.facts.list(ben)).toHaveLength(1);

    const fromBen = await callTool({ memory, name: 'forget', input: { id }, scope: ben });
    expect(fromBen.output).toEqual({ deleted: true, layer: 'facts' });
    expect(await memory.facts.list(ben)).toEqual([]);
  });

  it('correct supersedes a fact and keeps its history', async () => {
    const memory = newMemory();
    const key = { entityType: 'supplier', entity: 'Supplier X', key: 'lead time' };
    await memory.facts.remember(ana, { ...key, value: '45 days' });

    const { output } = await callTool({
      memory,
      name: 'correct',
      input: { ...key, value: '30 days' },
      scope: ana,
    });
    expect(output).toMatchObject({
      fact: { value: '30 days', version: 2, confidence: 1 },
      previous: { value: '45 days', status: 'superseded' },
    });
    expect((await memory.facts.get(ana, key))?.value).toBe('30 days');
    expect((await memory.facts.history(ana, key)).map((f) => f.value)).toEqual(['45 days', '30 days']);
  });

  it('works with a bound scope and no tool context', async () => {
    const memory = newMemory();
    const tools = memoryTools({ memory, scope: { orgId: 'acme', userId: 'ana' } });
    const { output } = await callTool({
      memory,
      tools,
      name: 'remember',
      input: { kind: 'fact', entity: 'Office', key: 'wifi', value: 'guest-net' },
    });
    expect(output).toMatchObject({ stored: 'fact' });
    expect((await memory.facts.list({ orgId: 'acme', userId: 'ana' })).map((f) => f.value)).toEqual([
      'guest-net',
    ]);
  });

  it('lets the tool context add levels to a bound scope, and refuses one that changes a level', async () => {
    const memory = newMemory();
    const tools = memoryTools({ memory, scope: { orgId: 'acme' } });
    const input = { kind: 'fact', entity: 'Office', key: 'wifi', value: 'guest-net' };

    const added = await callTool({ memory, tools, name: 'remember', input, scope: { userId: 'ana' } });
    expect(added.output).toMatchObject({ stored: 'fact' });
    expect((await memory.facts.list({ orgId: 'acme', userId: 'ana' })).map((f) => f.value)).toEqual([
      'guest-net',
    ]);

    const changed = await callTool({
      memory,
      tools,
      name: 'remember',
      input,
      scope: { orgId: 'other', userId: 'ana' },
    });
    expect(StrataError.hasCode(changed.error, 'invalid_scope')).toBe(true);
    expect(await memory.facts.list({ orgId: 'other', userId: 'ana' })).toEqual([]);
  });

  it('fails a tool call without any scope, and stores nothing', async () => {
    const memory = newMemory();
    const { error } = await callTool({
      memory,
      name: 'remember',
      input: { kind: 'fact', entity: 'Office', key: 'wifi', value: 'guest-net' },
    });
    expect(StrataError.hasCode(error, 'invalid_scope')).toBe(true);
  });

  it('validates its options', () => {
    expect(() => memoryTools({ memory: {} as Memory })).toThrow(StrataError);
    expect(() => memoryTools({ memory: newMemory(), scope: {} })).toThrow(StrataError);
    expect(() => memoryTools({ memory: newMemory(), recallBudgetTokens: 1 })).toThrow(StrataError);
  });
});
