import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../store/records.ts';
import { selectWorkingWindow } from './working-window.ts';

function message(seq: number, role: MessageRecord['role'], tokens: number): MessageRecord {
  return {
    id: `m${seq}`,
    scope: { userId: 'u', threadId: 't' },
    seq,
    role,
    content: 'x'.repeat(tokens),
    createdAt: seq,
    metadata: {},
  };
}

const count = (m: MessageRecord) => m.content.length;
const ids = (ms: MessageRecord[]) => ms.map((m) => m.id);

describe('selectWorkingWindow', () => {
  it('keeps everything that fits', () => {
    const messages = [message(1, 'system', 5), message(2, 'user', 5), message(3, 'assistant', 5)];
    const w = selectWorkingWindow({ messages, maxTokens: 100, countTokens: count });
    expect(ids(w.kept)).toEqual(['m1', 'm2', 'm3']);
    expect(w.evicted).toEqual([]);
    expect(w.used).toBe(15);
  });

  it('evicts the oldest turns first and keeps a contiguous run of the newest', () => {
    const messages = [
      message(1, 'user', 10),
      message(2, 'assistant', 10),
      message(3, 'user', 10),
      message(4, 'assistant', 30),
      message(5, 'assistant', 10),
    ];
    const w = selectWorkingWindow({ messages, maxTokens: 35, countTokens: count });
    // m3 is pinned (latest user turn); m5 fits; m4 does not, which ends the run.
    expect(ids(w.kept)).toEqual(['m3', 'm5']);
    expect(ids(w.evicted)).toEqual(['m1', 'm2', 'm4']);
    expect(w.pinned.get('m3')).toBe('latest_user_turn');
  });

  it('never evicts the system prompt or the latest user turn, even over budget', () => {
    const messages = [
      message(1, 'system', 50),
      message(2, 'user', 10),
      message(3, 'assistant', 10),
      message(4, 'user', 60),
    ];
    const w = selectWorkingWindow({ messages, maxTokens: 20, countTokens: count });
    expect(ids(w.kept)).toEqual(['m1', 'm4']);
    expect(ids(w.evicted)).toEqual(['m2', 'm3']);
    expect(w.pinned.get('m1')).toBe('system_prompt');
    expect(w.pinned.get('m4')).toBe('latest_user_turn');
    expect(w.used).toBe(110);
  });

  it('pins only the leading system messages as the system prompt', () => {
    const messages = [
      message(1, 'system', 5),
      message(2, 'system', 5),
      message(3, 'user', 5),
      message(4, 'system', 50),
      message(5, 'assistant', 5),
    ];
    const w = selectWorkingWindow({ messages, maxTokens: 20, countTokens: count });
    expect([...w.pinned.keys()].sort()).toEqual(['m1', 'm2', 'm3']);
    expect(ids(w.evicted)).toEqual(['m4']);
  });

  it('handles an empty thread', () => {
    const w = selectWorkingWindow({ messages: [], maxTokens: 10, countTokens: count });
    expect(w.kept).toEqual([]);
    expect(w.evicted).toEqual([]);
  });
});
