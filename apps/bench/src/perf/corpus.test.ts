import { normalizeText, tenantOf } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { corpus, corpusQuestion } from './corpus.ts';
import { seededRandom } from './random.ts';

describe('synthetic corpus', () => {
  const shape = { items: 600, users: 30, threadLength: 5, seed: 7 };

  it('is the same for the same seed and different for another', () => {
    const a = [...corpus(shape)].map((m) => m.content);
    expect([...corpus(shape)].map((m) => m.content)).toEqual(a);
    expect([...corpus({ ...shape, seed: 8 })].map((m) => m.content)).not.toEqual(a);
  });

  it('spreads messages over users in organisations of ten, in threads, with no duplicate text', () => {
    const messages = [...corpus(shape)];
    expect(messages).toHaveLength(600);
    expect(new Set(messages.map((m) => m.scope.userId)).size).toBe(30);
    expect(new Set(messages.map((m) => tenantOf(m.scope)))).toEqual(
      new Set(['org:org-0', 'org:org-1', 'org:org-2']),
    );
    const user0 = messages.filter((m) => m.scope.userId === 'user-0');
    expect(user0).toHaveLength(20);
    expect(new Set(user0.map((m) => m.scope.threadId))).toEqual(
      new Set(['thread-0', 'thread-1', 'thread-2', 'thread-3']),
    );
    expect(user0.map((m) => m.at)).toEqual([...user0.map((m) => m.at)].sort((x, y) => x - y));
    expect(new Set(messages.map((m) => normalizeText(m.content))).size).toBe(600);
  });

  it('asks questions from a new thread of an existing user', () => {
    const random = seededRandom(3);
    for (let i = 0; i < 20; i++) {
      const { scope, query } = corpusQuestion(random, 30);
      expect(Number(scope.userId!.slice('user-'.length))).toBeLessThan(30);
      expect(scope.threadId).toBe('thread-question');
      expect(query).toMatch(/\?$/);
    }
  });
});
