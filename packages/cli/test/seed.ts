import { copyFileSync, existsSync } from 'node:fs';
import { createMemory, type Memory, type Scope, type Store } from '@strata-memory/core';
import { localEmbedder } from '@strata-memory/embed-local';

export const MARIA: Scope = { orgId: 'acme', userId: 'maria' };
export const MONDAY: Scope = { ...MARIA, threadId: 'monday' };
export const THURSDAY: Scope = { ...MARIA, threadId: 'thursday' };
export const BOB: Scope = { orgId: 'acme', userId: 'bob' };

/** The same memory the CLI opens (offline embedder), on `store`. */
export function memoryOn(store: Store): Memory {
  return createMemory({ store, embedder: localEmbedder() });
}

/**
 * What the command tests read: Maria's supplier facts (one corrected), a what-if waiting for
 * review, a dependency graph, episodes in two threads; and Bob, a sibling user, whose data no
 * command at Maria's scope may show. All of it in organisation `org`.
 */
export async function seed(store: Store, org = 'acme'): Promise<void> {
  const memory = memoryOn(store);
  const maria = { ...MARIA, orgId: org };
  const bob = { ...BOB, orgId: org };
  await memory.observe({ ...MONDAY, orgId: org }, [
    { role: 'user', content: "Supplier X's lead time is 45 days and their payment terms are net 60." },
    { role: 'user', content: 'Auth, billing and the client SDK depend on the service API.' },
    { role: 'user', content: 'The gRPC migration affects the service API.' },
  ]);
  await memory.observe({ ...THURSDAY, orgId: org }, [
    { role: 'user', content: 'No, the lead time is actually 30 days, not 45.' },
    { role: 'user', content: 'What if we extended terms to 90 days?' },
  ]);
  await memory.facts.remember(maria, { entity: 'Supplier Y', key: 'quote', value: '$1,150' });
  await memory.facts.remember(bob, { entity: 'Supplier Z', key: 'lead time', value: '12 days' });
  await memory.close();
}

/** Copies a closed SQLite store (file and write-ahead log) so each test changes its own. */
export function copySqlite(from: string, to: string): string {
  copyFileSync(from, to);
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${to}-wal`);
  return to;
}
