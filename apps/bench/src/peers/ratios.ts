import { isStrata, type PeerName } from './peer-memory.ts';
import type { PeerDataset, PeerOutcome, PeerRun } from './peer-run.ts';

/** One figure the peers are compared on, and which way is better. */
export interface PeerFigure {
  key: string;
  label: string;
  better: 'higher' | 'lower';
  value(run: PeerRun): number | undefined;
}

const finite = (value: number | null | undefined) =>
  value === null || value === undefined || !Number.isFinite(value) ? undefined : value;

/** The figures, in table order. Recall figures exist on LoCoMo only. */
export const PEER_FIGURES: PeerFigure[] = [
  { key: 'recallAt5', label: 'R@5', better: 'higher', value: (run) => finite(run.recallAtK?.['5']) },
  { key: 'recallAt10', label: 'R@10', better: 'higher', value: (run) => finite(run.recallAtK?.['10']) },
  {
    key: 'recallAtBudget',
    label: 'R in 1k tokens',
    better: 'higher',
    value: (run) => finite(run.recallAtBudget),
  },
  { key: 'ingestPerSec', label: 'ingest/s', better: 'higher', value: (run) => finite(run.ingestPerSec) },
  {
    key: 'ingestNoEmbedPerSec',
    label: 'ingest/s no embed',
    better: 'higher',
    value: (run) => finite(run.ingestNoEmbedPerSec),
  },
  { key: 'searchP50', label: 'search p50 ms', better: 'lower', value: (run) => finite(run.searchMs.p50) },
  { key: 'searchP95', label: 'search p95 ms', better: 'lower', value: (run) => finite(run.searchMs.p95) },
  {
    key: 'searchWithEmbedP50',
    label: '+embed p50 ms',
    better: 'lower',
    value: (run) => finite(run.searchWithEmbedMs.p50),
  },
  {
    key: 'searchWithEmbedP95',
    label: '+embed p95 ms',
    better: 'lower',
    value: (run) => finite(run.searchWithEmbedMs.p95),
  },
  { key: 'peakRssMb', label: 'peak RSS MB', better: 'lower', value: (run) => finite(run.peakRssMb) },
  { key: 'bytesPerItem', label: 'bytes/item', better: 'lower', value: (run) => finite(run.bytesPerItem) },
];

/** Strata's value of a figure against the best other peer's: `ratio` = Strata ÷ best peer. */
export interface PeerRatio {
  dataset: PeerDataset;
  strata: PeerName;
  figure: string;
  better: 'higher' | 'lower';
  value: number;
  bestPeer: PeerName;
  bestValue: number;
  ratio: number;
}

/**
 * For each dataset, each Strata run and each figure: the best value among the peers that are not
 * Strata and ran (highest or lowest, by the figure's direction), and Strata's ratio to it. A figure
 * no other peer has (bytes on disk when every other peer ran in memory) gets no ratio.
 */
export function peerRatios(outcomes: readonly PeerOutcome[]): PeerRatio[] {
  const runs = outcomes.filter((outcome): outcome is PeerRun => outcome.ok);
  const ratios: PeerRatio[] = [];
  for (const strata of runs.filter((run) => isStrata(run.peer))) {
    const others = runs.filter((run) => run.dataset === strata.dataset && !isStrata(run.peer));
    for (const figure of PEER_FIGURES) {
      const value = figure.value(strata);
      if (value === undefined) continue;
      let best: { peer: PeerName; value: number } | undefined;
      for (const other of others) {
        const candidate = figure.value(other);
        if (candidate === undefined) continue;
        const better =
          figure.better === 'higher'
            ? candidate > (best?.value ?? -Infinity)
            : candidate < (best?.value ?? Infinity);
        if (better) best = { peer: other.peer, value: candidate };
      }
      if (!best) continue;
      ratios.push({
        dataset: strata.dataset,
        strata: strata.peer,
        figure: figure.key,
        better: figure.better,
        value,
        bestPeer: best.peer,
        bestValue: best.value,
        ratio: value / best.value,
      });
    }
  }
  return ratios;
}
