import { describe, expect, it } from 'vitest';
import type { PeerName } from './peer-memory.ts';
import type { PeerOutcome, PeerRun } from './peer-run.ts';
import { peerRatios } from './ratios.ts';

function run(peer: PeerName, figures: { r10: number; p95: number; bytes: number | null }): PeerRun {
  return {
    ok: true,
    peer,
    dataset: 'locomo',
    label: peer,
    items: 100,
    questions: 10,
    recallAtK: { '5': figures.r10 / 2, '10': figures.r10 },
    recallAtBudget: figures.r10,
    meanContextTokens: 500,
    ingestPerSec: 50,
    ingestNoEmbedPerSec: 100,
    searchMs: { p50: figures.p95 / 2, p95: figures.p95 },
    searchWithEmbedMs: { p50: figures.p95, p95: figures.p95 * 2 },
    peakRssMb: 300,
    bytesPerItem: figures.bytes,
  };
}

const ratioOf = (ratios: ReturnType<typeof peerRatios>, strata: PeerName, figure: string) =>
  ratios.find((ratio) => ratio.strata === strata && ratio.figure === figure);

describe('peerRatios', () => {
  const mem0 = run('mem0', { r10: 0.56, p95: 300, bytes: 7000 });
  const mastra = run('mastra', { r10: 0.37, p95: 15, bytes: 5000 });
  const langgraph = run('langgraph-memory', { r10: 0.37, p95: 1, bytes: null });
  const strata = run('strata-sqlite', { r10: 0.7, p95: 20, bytes: 14000 });
  const failed: PeerOutcome = {
    ok: false,
    peer: 'langgraph-postgres',
    dataset: 'locomo',
    label: 'x',
    error: 'down',
  };

  it('compares each Strata figure with the best other peer in the figure’s direction', () => {
    const ratios = peerRatios([mem0, mastra, langgraph, failed, strata]);
    const recall = ratioOf(ratios, 'strata-sqlite', 'recallAt10');
    expect(recall).toMatchObject({ bestPeer: 'mem0', bestValue: mem0.recallAtK!['10'], value: 0.7 });
    expect(recall?.ratio).toBeCloseTo(0.7 / 0.56);
    const p95 = ratioOf(ratios, 'strata-sqlite', 'searchP95');
    expect(p95).toMatchObject({
      bestPeer: 'langgraph-memory',
      bestValue: langgraph.searchMs.p95,
      better: 'lower',
    });
    expect(p95?.ratio).toBeCloseTo(strata.searchMs.p95 / langgraph.searchMs.p95);
  });

  it('skips peers without a figure and failed peers, and never compares Strata with Strata', () => {
    const other = run('strata-memory', { r10: 0.9, p95: 0.5, bytes: null });
    const ratios = peerRatios([mem0, mastra, langgraph, failed, strata, other]);
    expect(ratioOf(ratios, 'strata-sqlite', 'bytesPerItem')).toMatchObject({
      bestPeer: 'mastra',
      bestValue: 5000,
    });
    expect(ratioOf(ratios, 'strata-memory', 'bytesPerItem')).toBeUndefined();
    expect(ratios.every((ratio) => !ratio.bestPeer.startsWith('strata-'))).toBe(true);
  });

  it('gives no ratio when no other peer ran', () => {
    expect(peerRatios([strata, failed])).toEqual([]);
  });
});
