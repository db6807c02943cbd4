/**
 * A child process for the integration tests: writes numbered batches to one SQLite store and
 * prints `ack <batch>` after each batch commits. Each batch is one transaction: `size` episodes
 * with vectors, one fact and a state checkpoint.
 *
 *   node --conditions=@strata-memory/source batch-writer.ts <path> <writer> <batches|forever> <size>
 *        [claims]
 *
 * With `claims`, it then tries to claim the ledger keys job-0 … job-49 and prints
 * `claimed <key>` for each it wins.
 */
import { sqliteStore } from '../../src/index.ts';

const [path, writer, batchesArg, sizeArg, mode] = process.argv.slice(2);
if (!path || !writer || !batchesArg || !sizeArg)
  throw new Error('usage: batch-writer <path> <writer> <batches> <size>');
const batches = batchesArg === 'forever' ? Number.POSITIVE_INFINITY : Number(batchesArg);
const size = Number(sizeArg);
const DIMENSIONS = 16;
const scope = { orgId: 'crash-test', userId: writer };

function vector(seed: number): number[] {
  const v = Array.from({ length: DIMENSIONS }, (_, i) => Math.sin(seed * 7.3 + i * 1.7));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

const store = sqliteStore({ path, busyTimeoutMs: 30_000 });
for (let batch = 0; batch < batches; batch++) {
  await store.transaction(async (tx) => {
    await tx.episodes.put({
      episodes: Array.from({ length: size }, (_, i) => ({
        id: `${writer}-${batch}-${i}`,
        scope,
        text: `writer ${writer} batch ${batch} item ${i} shipment invoice payment`,
        occurredAt: batch * 1_000 + i,
        embedding: vector(batch * size + i),
        provenance: { source: 'observation' as const },
        metadata: { batch },
      })),
    });
    await tx.facts.insert({
      fact: {
        scope,
        entityType: 'batch',
        entityId: `${writer}-${batch}`,
        key: 'size',
        value: size,
        provenance: { source: 'api' as const },
      },
    });
    await tx.state.set({ scope, key: 'last-batch', value: batch });
  });
  process.stdout.write(`ack ${batch}\n`);
}

if (mode === 'claims') {
  for (let job = 0; job < 50; job++) {
    const key = `job-${job}`;
    const { claimed } = await store.ledger.claim({
      scope: { orgId: 'crash-test' },
      key,
      owner: writer,
      leaseMs: 3_600_000,
    });
    if (claimed) process.stdout.write(`claimed ${key}\n`);
  }
}
await store.close();
process.stdout.write('done\n');
