import { memoryStore } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { accessSwitch } from './access-switch.ts';

describe('accessSwitch', () => {
  it('records access until frozen, then records none, and passes everything else through', async () => {
    const access = accessSwitch(memoryStore());
    const scope = { userId: 'u' };
    const [episode] = await access.store.episodes.put({
      episodes: [{ scope, text: 'hello', occurredAt: 1, provenance: { source: 'api' } }],
    });
    await access.store.episodes.recordAccess({ scope, ids: [episode!.id], at: 2 });
    access.freeze();
    await access.store.episodes.recordAccess({ scope, ids: [episode!.id], at: 3 });
    await access.store.transaction((tx) => tx.episodes.recordAccess({ scope, ids: [episode!.id], at: 4 }));
    const [stored] = await access.store.episodes.get({ scope, ids: [episode!.id] });
    expect(stored).toMatchObject({ accessCount: 1, lastAccessedAt: 2 });
    expect(access.store.name).toBe('memory');
    await access.store.close();
  });
});
