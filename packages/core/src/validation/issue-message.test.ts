import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { suggestKey } from './issue-message.ts';

function caught(run: () => unknown): StrataError {
  try {
    const result = run();
    if (result instanceof Promise) throw new Error('use caughtAsync');
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

async function caughtAsync(run: () => Promise<unknown>): Promise<StrataError> {
  try {
    await run();
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

interface IssueDetail {
  path: string | string[];
  message: string;
  suggestion?: string;
}

function issuesOf(error: StrataError): IssueDetail[] {
  return (error.details as { issues: IssueDetail[] }).issues;
}

describe('validation errors speak Strata', () => {
  const memory = createMemory({ store: memoryStore() });
  const message = { role: 'user' as const, content: 'hello' };

  it('a missing scope says it is required and how to pass one', async () => {
    const error = await caughtAsync(() => memory.observe(undefined as never, message));
    expect(error.code).toBe('invalid_scope');
    expect(error.message).toContain('scope is required');
    expect(error.message).toContain('{ orgId?, userId?, agentId?, threadId? }');
    expect(error.message).not.toContain('nonoptional');
  });

  it('a missing scope in store arguments says it is required', async () => {
    const error = await caughtAsync(() => memory.store.episodes.list({} as never));
    expect(error.message).toContain('scope is required');
    expect(error.message).not.toContain('Invalid input');
  });

  it('a near-miss scope key suggests the level it meant', async () => {
    const error = await caughtAsync(() => memory.observe({ userID: 'ada' } as never, message));
    expect(error.code).toBe('invalid_scope');
    expect(error.message).toContain('did you mean userId?');
    expect(issuesOf(error).find((i) => i.suggestion !== undefined)?.suggestion).toBe('userId');
  });

  it('an empty user id says it is empty, not that it holds control characters', async () => {
    const error = await caughtAsync(() => memory.observe({ userId: '' }, message));
    expect(error.message).toContain('must not be empty');
    expect(error.message).not.toContain('control characters');
  });

  it('a near-miss option key of createMemory suggests the option', () => {
    const error = caught(() => createMemory({ store: memoryStore(), embeder: undefined } as never));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('did you mean embedder?');
    expect(issuesOf(error)).toEqual([
      expect.objectContaining({ path: 'embeder', code: 'unrecognized_keys', suggestion: 'embedder' }),
    ]);
  });

  it('a near-miss recall option suggests the option, and nothing stored is lost', async () => {
    const scope = { userId: 'ada' };
    await memory.observe(scope, message);
    const error = await caughtAsync(() => memory.recall(scope, { query: 'hello', maxEpisode: 3 } as never));
    expect(error.code).toBe('invalid_input');
    expect(issuesOf(error)[0]?.suggestion).toBe('maxEpisodes');
    const page = await memory.store.episodes.list({ scope });
    expect(page.items.map((e) => e.text).join(' ')).toContain('hello');
  });

  it('an unknown key with no near miss lists the accepted keys', async () => {
    const error = await caughtAsync(() => memory.recall({ userId: 'ada' }, { zzzzzz: 1 } as never));
    expect(error.message).toContain('unknown key "zzzzzz"');
    expect(error.message).toContain('accepted keys:');
    expect(issuesOf(error)[0]?.suggestion).toBeUndefined();
  });

  it('suggestKey matches case-insensitively and by edit distance, and refuses far keys', () => {
    expect(suggestKey('userID', ['orgId', 'userId'])).toBe('userId');
    expect(suggestKey('theradId', ['threadId', 'agentId'])).toBe('threadId');
    expect(suggestKey('banana', ['threadId', 'agentId'])).toBeUndefined();
  });
});
