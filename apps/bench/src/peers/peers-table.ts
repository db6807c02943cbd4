import { markdownTable } from '../report/markdown-table.ts';
import { count, millis, percent } from '../report/number-format.ts';
import { PEER_DATASETS, type PeerDataset } from './peer-run.ts';
import { PEER_FIGURES } from './ratios.ts';
import type { PeersReport } from './run-peers.ts';

const RECALL_FIGURES = new Set(['recallAt5', 'recallAt10', 'recallAtBudget']);
const RATE_FIGURES = new Set(['ingestPerSec', 'ingestNoEmbedPerSec', 'bytesPerItem']);

function formatFigure(key: string, value: number | undefined): string {
  if (RECALL_FIGURES.has(key)) return percent(value);
  if (RATE_FIGURES.has(key)) return count(value);
  if (key === 'peakRssMb') return count(value);
  return millis(value);
}

/** A table cell holds one line and no pipe. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '/');
}

function datasetTitle(report: PeersReport, dataset: PeerDataset): string {
  const run = report.runs.find((outcome) => outcome.dataset === dataset && outcome.ok);
  if (dataset === 'locomo') {
    const shape = run?.ok
      ? `${count(run.items)} turns, ${count(run.questions)} questions (categories 1-4)`
      : '';
    return `LoCoMo${shape ? `: ${shape}` : ''}`;
  }
  const { items, users, queries } = report.perf;
  return `Perf corpus: ${count(items)} messages of ${users} users, ${queries} searches`;
}

/** The side-by-side tables (one per dataset), Strata's ratios, and what was skipped or failed. */
export function peersTable(report: PeersReport): string {
  const out: string[] = [];
  out.push(
    `Machine: ${report.machine.cpu}, ${report.machine.cpus} CPUs, ${report.machine.memoryGb} GiB, Node ${report.machine.node}; embedder ${report.embedder}; tokenizer ${report.tokenizer}.`,
  );
  for (const dataset of PEER_DATASETS) {
    const outcomes = report.runs.filter((outcome) => outcome.dataset === dataset);
    if (outcomes.length === 0) continue;
    const figures = PEER_FIGURES.filter((figure) => dataset === 'locomo' || !RECALL_FIGURES.has(figure.key));
    const rows = outcomes.map((outcome) =>
      outcome.ok
        ? [outcome.label, ...figures.map((figure) => formatFigure(figure.key, figure.value(outcome)))]
        : [outcome.label, cell(`failed: ${outcome.error}`)],
    );
    out.push(`\n${datasetTitle(report, dataset)}\n`);
    out.push(markdownTable({ headers: ['memory', ...figures.map((figure) => figure.label)], rows }));

    const ratios = report.ratios.filter((ratio) => ratio.dataset === dataset);
    if (ratios.length > 0) {
      const strataRows = [...new Set(ratios.map((ratio) => ratio.strata))];
      const ratioFigures = figures.filter((figure) => ratios.some((ratio) => ratio.figure === figure.key));
      out.push(
        `\nStrata ÷ best other peer (${ratioFigures.length} figures; above 1 is better for recall and ingest, below 1 for time, memory and size)\n`,
      );
      out.push(
        markdownTable({
          headers: ['Strata on', ...ratioFigures.map((figure) => figure.label)],
          rows: strataRows.map((strata) => [
            report.runs.find((run) => run.peer === strata)?.label ?? strata,
            ...ratioFigures.map((figure) => {
              const ratio = ratios.find((r) => r.strata === strata && r.figure === figure.key);
              return ratio ? `${ratio.ratio.toFixed(2)}× ${ratio.bestPeer}` : '—';
            }),
          ]),
        }),
      );
    }
  }
  for (const { peer, reason } of report.skipped) out.push(`\n- ${peer} not run: ${reason}`);
  return `${out.join('\n')}\n`;
}
