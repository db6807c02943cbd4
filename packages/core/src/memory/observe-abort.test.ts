import { describe, expect, it } from 'vitest';
import type { MemoryOptions } from '../engine/types.ts';
import { StrataError } from '../errors/strata-error.ts';
import { type Embedder, type Extractor, PORT_SPECIFICATION_VERSION } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, testEmbedder } from '../test/index.ts';
import { createMemory } from './create-memory.ts';

/** `observe`'s signal: a cancelled call returns at once with `aborted` and stores nothing. */

const thread: Scope = { orgId: 'acme', userId: 'maria', threadId: 't1' };
const user: Scope = { orgId: 'acme', userId: 'maria' };
const turn = { role: 'user' as const, content: "Supplier X's lead time is 45 days." };

async function nothingStored(store: Store) {
  const [messages, episodes, facts, audit] = await Promise.all([
    store.threads.listMessages({ scope: thread }),
    store.episodes.list({ scope: user }),
    store.facts.find({ scope: user }),
    store.audit.list({ scope: user }),
  ]);
  return messages.length + episodes.items.length + facts.items.length + audit.items.length === 0;
}

async function abortedWith(promise: Promise<unknown>): Promise<StrataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const found = StrataError.from(error);
  if (found?.code !== 'aborted') throw new Error(`expected aborted, got ${String(error)}`);
  return found;
}

function setup(options: Partial<MemoryOptions> = {}) {
  const store = options.store ?? memoryStore();
  return { store, memory: createMemory({ clock: manualClock(), ...options, store }) };
}

/** An extractor that never answers and ignores the signal, like a model call stuck on the network. */
function stuckExtractor(onCall: () => void): Extractor {
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'stuck',
    kind: 'model',
    extract: () => {
      onCall();
      return new Promise(() => {});
    },
  };
}

describe('observe: abort signal', () => {
  it('fails at once with aborted when the signal has already fired, calling no port', async () => {
    let embedded = 0;
    const embedder: Embedder = {
      ...testEmbedder(16),
      embed: async (args) => {
        embedded += 1;
        return testEmbedder(16).embed(args);
      },
    };
    const { memory, store } = setup({ embedder });
    const controller = new AbortController();
    controller.abort(new Error('user left'));
    const error = await abortedWith(memory.observe(thread, turn, { signal: controller.signal }));
    expect((error.cause as Error).message).toBe('user left');
    expect(embedded).toBe(0);
    expect(await nothingStored(store)).toBe(true);
  });

  it('returns when the signal fires even if the extractor never answers, storing nothing', async () => {
    const controller = new AbortController();
    const { memory, store } = setup({ extractor: stuckExtractor(() => controller.abort()) });
    await abortedWith(memory.observe(thread, turn, { signal: controller.signal }));
    expect(await nothingStored(store)).toBe(true);
  });

  it('stops an embedder that listens to the signal instead of storing episodes without vectors', async () => {
    const controller = new AbortController();
    const embedder: Embedder = {
      ...testEmbedder(16),
      embed: async ({ signal }) => {
        controller.abort();
        signal?.throwIfAborted();
        return [];
      },
    };
    const { memory, store } = setup({ embedder });
    await abortedWith(memory.observe(thread, turn, { signal: controller.signal }));
    expect(await nothingStored(store)).toBe(true);
  });

  it('rolls back the turn when the signal fires between the store writes', async () => {
    const controller = new AbortController();
    const inner = memoryStore();
    // The signal fires while the messages are being appended, before the episodes are written.
    const firing = <T extends Pick<Store, 'threads'>>(target: T): T => ({
      ...target,
      threads: {
        ...target.threads,
        appendMessages: async (args: Parameters<Store['threads']['appendMessages']>[0]) => {
          const appended = await target.threads.appendMessages(args);
          controller.abort();
          return appended;
        },
      },
    });
    const store: Store = { ...firing(inner), transaction: (fn) => inner.transaction((tx) => fn(firing(tx))) };
    const { memory } = setup({ store });
    await abortedWith(memory.observe(thread, turn, { signal: controller.signal }));
    expect(await nothingStored(inner)).toBe(true);
  });
});
