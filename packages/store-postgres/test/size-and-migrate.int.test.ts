import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteStore } from '../src/pglite/index.ts';
import { SCHEMA_VERSION } from '../src/schema/migrations.ts';
import { openTarget, type TestTarget } from './target.ts';

let target: TestTarget;
const folder = mkdtempSync(join(tmpdir(), 'strata-pg-size-'));

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('store.migrate()', () => {
  it('migrates a new schema on the first call and reports every version it applied', async () => {
    const store = target.openStore({ schema: target.freshSchema('migrate') });
    const first = await store.migrate!();
    expect(first).toEqual({
      version: SCHEMA_VERSION,
      latest: SCHEMA_VERSION,
      applied: Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1),
    });
    await store.close();
  });

  it('reports nothing applied on a schema already up to date', async () => {
    const schema = target.freshSchema('migrated');
    const first = target.openStore({ schema });
    await first.state.set({ scope: { userId: 'u' }, key: 'k', value: 1 });
    await first.close();
    const second = target.openStore({ schema });
    expect(await second.migrate!()).toEqual({ version: SCHEMA_VERSION, latest: SCHEMA_VERSION, applied: [] });
    await second.close();
  });
});

describe('store.size()', () => {
  it("sums the schema's tables with their indexes, and grows with what is stored", async () => {
    const schema = target.freshSchema('size');
    const store = target.openStore({ schema });
    const before = await store.size!();
    expect(before.parts.length).toBeGreaterThan(5);
    for (const part of before.parts) expect(part.name.startsWith(`${schema}.`)).toBe(true);
    expect(before.bytes).toBe(before.parts.reduce((sum, part) => sum + part.bytes, 0));
    await store.state.set({ scope: { userId: 'u' }, key: 'big', value: 'x'.repeat(200_000) });
    const after = await store.size!();
    expect(after.bytes).toBeGreaterThan(before.bytes);
    await store.close();
  });

  it("is the data folder's size for PGlite on disk", async () => {
    const dataDir = join(folder, 'db');
    const store = pgliteStore({ dataDir });
    await store.state.set({ scope: { userId: 'u' }, key: 'k', value: 1 });
    const size = await store.size!();
    let onDisk = 0;
    for (const entry of readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) onDisk += statSync(join(entry.parentPath, entry.name)).size;
    }
    expect(size).toEqual({ bytes: onDisk, parts: [{ name: dataDir, bytes: onDisk }] });
    expect(size.bytes).toBeGreaterThan(1_000_000);
    await store.close();
  });
});
