import type { MastraDBMessage } from '@mastra/core/memory';
import { type Memory, StrataError } from '@strata-memory/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { newMemory, threadMessages } from '../../test/memory-fixtures.ts';
import { type StrataMastraMemory, strataMemory } from '../index.ts';

function message(args: {
  id: string;
  threadId: string;
  resourceId?: string;
  role?: 'user' | 'assistant';
  text: string;
  at: string;
}): MastraDBMessage {
  return {
    id: args.id,
    role: args.role ?? 'user',
    threadId: args.threadId,
    ...(args.resourceId ? { resourceId: args.resourceId } : {}),
    createdAt: new Date(args.at),
    content: { format: 2, parts: [{ type: 'text', text: args.text }], content: args.text },
  };
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<StrataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(StrataError.isInstance(error), `expected a StrataError, got ${String(error)}`).toBe(true);
  expect((error as StrataError).code).toBe(code);
  return error as StrataError;
}

const now = new Date('2026-03-01T10:00:00Z');
const thread = (id: string, resourceId: string, extra: Record<string, unknown> = {}) => ({
  id,
  resourceId,
  createdAt: now,
  updatedAt: now,
  ...extra,
});

let memory: Memory;
let mastra: StrataMastraMemory;

beforeEach(() => {
  memory = newMemory();
  mastra = strataMemory({ memory });
});

describe('threads', () => {
  it('saves, reads, updates and lists threads; resource → userId, thread → threadId', async () => {
    const saved = await mastra.saveThread({
      thread: thread('t1', 'ada', { title: 'Trip', metadata: { topic: 'travel' } }),
    });
    expect(saved).toMatchObject({
      id: 't1',
      resourceId: 'ada',
      title: 'Trip',
      metadata: { topic: 'travel' },
    });
    expect(await memory.store.threads.get({ scope: { userId: 'ada', threadId: 't1' } })).not.toBeNull();
    expect(await mastra.getThreadById({ threadId: 't1' })).toMatchObject({ id: 't1', resourceId: 'ada' });
    expect(await mastra.getThreadById({ threadId: 'nope' })).toBeNull();

    const updated = await mastra.updateThread({
      id: 't1',
      title: 'Lisbon trip',
      metadata: { stage: 'booking' },
    });
    expect(updated).toMatchObject({ title: 'Lisbon trip', metadata: { topic: 'travel', stage: 'booking' } });

    await mastra.saveThread({ thread: thread('t2', 'ada', { metadata: { topic: 'work' } }) });
    await mastra.saveThread({ thread: thread('b1', 'bob') });
    const listed = await mastra.listThreads({ filter: { resourceId: 'ada' } });
    expect(listed.threads.map((t) => t.id).sort()).toEqual(['t1', 't2']);
    expect(listed).toMatchObject({ total: 2, page: 0, perPage: 100, hasMore: false });
    const travel = await mastra.listThreads({ filter: { resourceId: 'ada', metadata: { topic: 'travel' } } });
    expect(travel.threads.map((t) => t.id)).toEqual(['t1']);
    const paged = await mastra.listThreads({
      filter: { resourceId: 'ada' },
      perPage: 1,
      page: 1,
      orderBy: { field: 'createdAt', direction: 'ASC' },
    });
    expect(paged).toMatchObject({ total: 2, page: 1, perPage: 1, hasMore: false });
    expect(paged.threads).toHaveLength(1);
  });

  it('refuses to save a thread id another resource owns, and changes nothing', async () => {
    await mastra.saveThread({ thread: thread('t1', 'ada', { title: 'Ada' }) });
    await expectCode(
      mastra.saveThread({ thread: thread('t1', 'mallory', { title: 'Mine now' }) }),
      'invalid_scope',
    );
    expect(await memory.store.threads.lookup({ threadId: 't1' })).toHaveLength(1);
    expect((await mastra.getThreadById({ threadId: 't1' }))?.title).toBe('Ada');
  });

  it('rejects bad ids with a StrataError and stores nothing', async () => {
    await expectCode(mastra.saveThread({ thread: thread('', 'ada') }), 'invalid_input');
    await expectCode(mastra.saveThread({ thread: thread('t1', '') }), 'invalid_scope');
    await expectCode(mastra.saveThread({ thread: thread('t\u0000', 'ada') }), 'invalid_input');
    expect(await mastra.listThreads({ filter: { resourceId: 'ada' } })).toMatchObject({ total: 0 });
  });

  it('lists across resources only inside a bound org', async () => {
    await expectCode(mastra.listThreads({}), 'invalid_scope');
    const org = strataMemory({ memory, orgId: 'acme' });
    await org.saveThread({ thread: thread('a1', 'ada') });
    await org.saveThread({ thread: thread('b1', 'bob') });
    await mastra.saveThread({ thread: thread('x1', 'ada') });
    const all = await org.listThreads({});
    expect(all.threads.map((t) => t.id).sort()).toEqual(['a1', 'b1']);
  });

  it('deleteThread erases the thread and its messages; unknown ids are not_found', async () => {
    await mastra.saveMessages({
      messages: [
        message({ id: 'm1', threadId: 't1', resourceId: 'ada', text: 'Hello', at: '2026-03-01T10:00:00Z' }),
      ],
    });
    await mastra.deleteThread('t1');
    expect(await mastra.getThreadById({ threadId: 't1' })).toBeNull();
    expect(await threadMessages(memory, { userId: 'ada', threadId: 't1' })).toEqual([]);
    await expectCode(mastra.deleteThread('t1'), 'not_found');
    await expectCode(mastra.updateThread({ id: 'nope', title: 'x' }), 'not_found');
  });

  it('clones a thread with new message ids, into the same or another resource', async () => {
    await mastra.saveThread({ thread: thread('t1', 'ada', { title: 'Trip' }) });
    await mastra.saveMessages({
      messages: [
        message({
          id: 'm1',
          threadId: 't1',
          resourceId: 'ada',
          text: 'My name is Ada.',
          at: '2026-03-01T10:00:00Z',
        }),
        message({ id: 'm2', threadId: 't1', role: 'assistant', text: 'Hi Ada.', at: '2026-03-01T10:00:01Z' }),
        message({ id: 'm3', threadId: 't1', text: 'I like Lisbon.', at: '2026-03-01T10:00:02Z' }),
      ],
    });
    const factsBefore = await memory.facts.history({ userId: 'ada' }, { entity: 'ada', key: 'name' });
    const clone = await mastra.cloneThread({
      sourceThreadId: 't1',
      newThreadId: 't1-copy',
      options: { messageLimit: 2 },
    });
    expect(clone.thread).toMatchObject({ id: 't1-copy', resourceId: 'ada', title: 'Clone of Trip' });
    expect(clone.thread.metadata?.clone).toMatchObject({ sourceThreadId: 't1', lastMessageId: 'm3' });
    expect(clone.clonedMessages.map((m) => m.content.content ?? m.content.parts)).toHaveLength(2);
    expect(Object.keys(clone.messageIdMap ?? {})).toEqual(['m2', 'm3']);
    expect(clone.clonedMessages.map((m) => m.id)).toEqual([clone.messageIdMap!.m2, clone.messageIdMap!.m3]);
    // Copied, not restated: no fact confirmed or written again.
    expect(await memory.facts.history({ userId: 'ada' }, { entity: 'ada', key: 'name' })).toEqual(
      factsBefore,
    );

    const forBob = await mastra.cloneThread({
      sourceThreadId: 't1',
      newThreadId: 'bob-copy',
      resourceId: 'bob',
    });
    expect(forBob.thread.resourceId).toBe('bob');
    expect(forBob.clonedMessages).toHaveLength(3);
    await expectCode(mastra.cloneThread({ sourceThreadId: 't1', newThreadId: 't1-copy' }), 'conflict');
    await expectCode(mastra.cloneThread({ sourceThreadId: 'nope' }), 'not_found');
  });
});

describe('messages', () => {
  const history = [
    message({ id: 'm1', threadId: 't1', resourceId: 'ada', text: 'one', at: '2026-03-01T10:00:00Z' }),
    message({
      id: 'm2',
      threadId: 't1',
      resourceId: 'ada',
      role: 'assistant',
      text: 'two',
      at: '2026-03-01T10:00:01Z',
    }),
    message({ id: 'm3', threadId: 't1', resourceId: 'ada', text: 'three', at: '2026-03-01T10:00:02Z' }),
    message({
      id: 'm4',
      threadId: 't1',
      resourceId: 'ada',
      role: 'assistant',
      text: 'four',
      at: '2026-03-01T10:00:03Z',
    }),
  ];
  const texts = (messages: MastraDBMessage[]) =>
    messages.map((m) => m.content.parts.map((p) => ('text' in p ? p.text : '')).join(''));

  it('saveMessages creates the thread in the messages’ resource and observes each message once', async () => {
    const saved = await mastra.saveMessages({ messages: history });
    expect(saved.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(await mastra.getThreadById({ threadId: 't1' })).toMatchObject({ resourceId: 'ada' });
    await mastra.saveMessages({ messages: history });
    expect((await threadMessages(memory, { userId: 'ada', threadId: 't1' })).map((m) => m.id)).toEqual([
      'm1',
      'm2',
      'm3',
      'm4',
    ]);
  });

  it('saveMessages refuses a thread of another resource and stores nothing', async () => {
    await mastra.saveMessages({ messages: history.slice(0, 1) });
    await expectCode(
      mastra.saveMessages({
        messages: [
          message({
            id: 'x1',
            threadId: 't1',
            resourceId: 'mallory',
            text: 'mine',
            at: '2026-03-01T11:00:00Z',
          }),
        ],
      }),
      'invalid_scope',
    );
    await expectCode(
      mastra.saveMessages({
        messages: [
          message({ id: 'x2', threadId: 'new-thread', text: 'no owner', at: '2026-03-01T11:00:00Z' }),
        ],
      }),
      'invalid_input',
    );
    expect((await threadMessages(memory, { userId: 'ada', threadId: 't1' })).map((m) => m.id)).toEqual([
      'm1',
    ]);
    expect(await memory.store.threads.lookup({ threadId: 'new-thread' })).toEqual([]);
  });

  it('recall pages, orders, filters by date and includes neighbours', async () => {
    await mastra.saveMessages({ messages: history });
    const all = await mastra.recall({ threadId: 't1', resourceId: 'ada', perPage: false });
    expect(texts(all.messages)).toEqual(['one', 'two', 'three', 'four']);
    expect(all).toMatchObject({ total: 4, hasMore: false, perPage: false });

    const page = await mastra.recall({
      threadId: 't1',
      perPage: 2,
      page: 0,
      orderBy: { field: 'createdAt', direction: 'DESC' },
    });
    expect(texts(page.messages)).toEqual(['four', 'three']);
    expect(page).toMatchObject({ total: 4, hasMore: true, page: 0, perPage: 2 });

    const since = await mastra.recall({
      threadId: 't1',
      filter: { dateRange: { start: new Date('2026-03-01T10:00:01Z'), startExclusive: true } },
    });
    expect(texts(since.messages)).toEqual(['three', 'four']);

    const withContext = await mastra.recall({
      threadId: 't1',
      perPage: 1,
      orderBy: { direction: 'DESC' },
      include: [{ id: 'm2', withPreviousMessages: 1 }],
    });
    expect(texts(withContext.messages)).toEqual(['four', 'two', 'one']);
  });

  it('recall refuses a foreign resource and an unknown thread', async () => {
    await mastra.saveMessages({ messages: history });
    await expectCode(mastra.recall({ threadId: 't1', resourceId: 'mallory' }), 'invalid_scope');
    await expectCode(mastra.recall({ threadId: 'nope', resourceId: 'ada' }), 'not_found');
    await expectCode(mastra.recall({ threadId: 't1', perPage: -1 }), 'invalid_input');
  });

  it('deleteMessages removes messages found through their thread, or in a bound org', async () => {
    await mastra.saveMessages({ messages: history });
    await mastra.deleteMessages([history[0]!, history[1]!] as unknown as Array<{ id: string }>);
    expect((await threadMessages(memory, { userId: 'ada', threadId: 't1' })).map((m) => m.id)).toEqual([
      'm3',
      'm4',
    ]);
    // Bare ids carry no thread; without an org they cannot be searched across tenants.
    await expectCode(mastra.deleteMessages(['m3']), 'invalid_input');

    const org = strataMemory({ memory, orgId: 'acme' });
    await org.saveMessages({
      messages: [
        message({ id: 'o1', threadId: 'ot', resourceId: 'ada', text: 'keep', at: '2026-03-01T10:00:00Z' }),
        message({ id: 'o2', threadId: 'ot', resourceId: 'ada', text: 'drop', at: '2026-03-01T10:00:01Z' }),
      ],
    });
    await org.deleteMessages(['o2', 'unknown']);
    expect(
      (await threadMessages(memory, { orgId: 'acme', userId: 'ada', threadId: 'ot' })).map((m) => m.id),
    ).toEqual(['o1']);
  });
});

describe('working memory', () => {
  beforeEach(async () => {
    await mastra.saveThread({ thread: thread('t1', 'ada') });
  });

  it('is the resource’s facts, patched key by key, never replaced', async () => {
    expect(await mastra.getWorkingMemory({ threadId: 't1', resourceId: 'ada' })).toBeNull();
    await mastra.updateWorkingMemory({
      threadId: 't1',
      resourceId: 'ada',
      workingMemory: '# User Information\n- **First Name**: Ada\n- **Location**: Lisbon\n- **Occupation**: ',
    });
    // An update that names one key leaves the others alone.
    await mastra.updateWorkingMemory({
      threadId: 't1',
      resourceId: 'ada',
      workingMemory: '- **Location**: Porto',
    });
    const text = await mastra.getWorkingMemory({ threadId: 't1', resourceId: 'ada' });
    expect(text).toContain('- **first name**: Ada');
    expect(text).toContain('- **location**: Porto');
    expect(text).not.toContain('occupation');
    const location = await memory.facts.history(
      { userId: 'ada' },
      { entityType: 'user', entity: 'ada', key: 'location' },
    );
    expect(location.map((f) => [f.value, f.status])).toEqual([
      ['Lisbon', 'superseded'],
      ['Porto', 'active'],
    ]);
  });

  it('fills the template and reads facts the extractor learned from the conversation', async () => {
    const templated = strataMemory({
      memory,
      workingMemoryTemplate: '# Profile\n- **Name**:\n- **Location**:\n',
    });
    await templated.saveMessages({
      messages: [
        message({
          id: 'm1',
          threadId: 't1',
          resourceId: 'ada',
          text: 'My name is Ada.',
          at: '2026-03-01T10:00:00Z',
        }),
      ],
    });
    expect(await templated.getWorkingMemory({ threadId: 't1', resourceId: 'ada' })).toBe(
      '# Profile\n- **Name**: Ada\n- **Location**:',
    );
    expect(await templated.getWorkingMemoryTemplate()).toEqual({
      format: 'markdown',
      content: '# Profile\n- **Name**:\n- **Location**:\n',
    });
  });

  it('JSON updates patch top-level keys; null removes a key', async () => {
    await mastra.updateWorkingMemory({
      threadId: 't1',
      resourceId: 'ada',
      workingMemory: '{"name":"Ada","city":"Lisbon"}',
    });
    await mastra.updateWorkingMemory({ threadId: 't1', resourceId: 'ada', workingMemory: '{"city":null}' });
    const json = await mastra.getWorkingMemory({
      threadId: 't1',
      resourceId: 'ada',
      memoryConfig: { workingMemory: { enabled: true, schema: {} as never } },
    });
    expect(JSON.parse(json!)).toEqual({ name: 'Ada' });
  });

  it('checks every key before writing any, and the resource owns the thread', async () => {
    const tooLong = 'k'.repeat(600);
    await expectCode(
      mastra.updateWorkingMemory({
        threadId: 't1',
        resourceId: 'ada',
        workingMemory: `- name: Ada\n- ${tooLong}: x`,
      }),
      'invalid_input',
    );
    expect(await mastra.getWorkingMemory({ threadId: 't1', resourceId: 'ada' })).toBeNull();
    await expectCode(
      mastra.updateWorkingMemory({ threadId: 't1', resourceId: 'mallory', workingMemory: '- name: Mallory' }),
      'invalid_scope',
    );
    const vnext = await mastra.__experimental_updateWorkingMemoryVNext({
      threadId: 't1',
      resourceId: 'ada',
      workingMemory: '- name: Ada',
    });
    expect(vnext).toEqual({ success: true, reason: 'patched working memory: 1 written, 0 removed' });
  });
});

describe('options', () => {
  it('rejects bad options with a StrataError before any agent runs', () => {
    expect(() => strataMemory({} as never)).toThrow(StrataError);
    expect(() => strataMemory({ memory, orgId: '' })).toThrow(/orgId/);
    expect(() => strataMemory({ memory, recall: { layers: ['working' as never] } })).toThrow(StrataError);
    expect(() => strataMemory({ memory, unknown: true } as never)).toThrow(StrataError);
  });

  it('returns its own processors once, and none when the agent already has them', async () => {
    const [recall] = await mastra.getInputProcessors();
    const [observe] = await mastra.getOutputProcessors();
    expect(recall?.id).toBe('strata-memory-recall');
    expect(observe?.id).toBe('strata-memory-observe');
    expect(await mastra.getInputProcessors([recall!])).toEqual([]);
    expect(await mastra.getOutputProcessors([observe!])).toEqual([]);
  });
});
