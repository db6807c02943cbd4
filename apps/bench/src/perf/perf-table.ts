import { markdownTable } from '../report/markdown-table.ts';
import { count, millis } from '../report/number-format.ts';
import type { PerfReport, PerfRun } from './run-perf.ts';

function ratio(value: number | null, base: number | null): string {
  if (value === null || base === null || !Number.isFinite(value) || !Number.isFinite(base) || base === 0)
    return '—';
  return `×${(value / base).toFixed(2)}`;
}

/** The readable perf report: one row per corpus size, then growth relative to the smallest. */
export function perfTable(report: PerfReport): string {
  const runs = report.runs;
  const measures = markdownTable({
    headers: [
      'items',
      'observe/s',
      'observe/s no embed',
      'recall p50 ms',
      'recall p95 ms',
      'warm recall p50 / p95 ms',
      'warm recall CPU p50 / p95 ms',
      'recall excl. embedding p50 / p95 ms',
      'its CPU p50 / p95 ms',
      'fact gets/s',
      'traverse p50 ms',
      'traverse p95 ms',
      'bytes/item',
      'peak RSS MB',
    ],
    rows: runs.map((run) => [
      count(run.items),
      count(run.observePerSec ?? undefined),
      count(run.observeNoEmbedPerSec ?? undefined),
      millis(run.recallLatencyMs.p50),
      millis(run.recallLatencyMs.p95),
      `${millis(run.warmRecallLatencyMs.p50)} / ${millis(run.warmRecallLatencyMs.p95)}`,
      `${millis(run.warmRecallCpuMs.p50)} / ${millis(run.warmRecallCpuMs.p95)}`,
      `${millis(run.recallExcludingEmbeddingMs.p50)} / ${millis(run.recallExcludingEmbeddingMs.p95)}`,
      `${millis(run.recallExcludingEmbeddingCpuMs.p50)} / ${millis(run.recallExcludingEmbeddingCpuMs.p95)}`,
      count(run.factGetPerSec),
      millis(run.traverseLatencyMs.p50),
      millis(run.traverseLatencyMs.p95),
      count(run.bytesPerItem ?? undefined),
      count(run.peakRssMb),
    ]),
  });
  const base: PerfRun | undefined = runs[0];
  const lines = [`Performance: store ${report.store}, embedder ${report.embedder}`, '', measures];
  const stageNames = [...new Set(runs.flatMap((run) => Object.keys(run.recallStagesMs ?? {})))];
  if (stageNames.length > 0) {
    const stages = markdownTable({
      headers: ['items', ...stageNames],
      rows: runs.map((run) => [
        count(run.items),
        ...stageNames.map((stage) => {
          const ms = run.recallStagesMs?.[stage];
          return ms ? `${millis(ms.p50)} / ${millis(ms.p95)}` : '—';
        }),
      ]),
    });
    lines.push('', 'Recall stages, run one after another (p50 / p95 ms):', '', stages);
  }
  if (base && runs.length > 1) {
    const growth = markdownTable({
      headers: [
        'items',
        'items ×',
        'observe/s ×',
        'recall p95 ×',
        'fact gets/s ×',
        'traverse p95 ×',
        'bytes/item ×',
      ],
      rows: runs.map((run) => [
        count(run.items),
        ratio(run.items, base.items),
        ratio(run.observePerSec, base.observePerSec),
        ratio(run.recallLatencyMs.p95, base.recallLatencyMs.p95),
        ratio(run.factGetPerSec, base.factGetPerSec),
        ratio(run.traverseLatencyMs.p95, base.traverseLatencyMs.p95),
        ratio(run.bytesPerItem, base.bytesPerItem),
      ]),
    });
    lines.push('', `Growth relative to ${count(base.items)} items:`, '', growth);
  }
  return `${lines.join('\n')}\n`;
}
