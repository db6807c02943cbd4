import { markdownTable } from '../report/markdown-table.ts';
import { count, millis, percent } from '../report/number-format.ts';
import type { LocomoNotes, LocomoReport } from './run-locomo.ts';
import type { StrategyName } from './strategies/types.ts';

export const CATEGORY_NAMES: Record<string, string> = {
  '1': 'multi-hop',
  '2': 'temporal',
  '3': 'open-domain',
  '4': 'single-hop',
};

/** The readable report: overall table and per-category table. */
export function locomoTable(args: {
  report: LocomoReport;
  ks: readonly number[];
  budgets: readonly number[];
}): string {
  const { report, ks, budgets } = args;
  const entries = Object.entries(report.strategies) as [
    StrategyName,
    LocomoReport['strategies'][StrategyName],
  ][];
  const recallHeaders = [...ks.map((k) => `R@${k}`), ...budgets.map((b) => `≤${count(b)} tok`)];

  const overall = markdownTable({
    headers: ['strategy', ...recallHeaders, 'context tokens', 'p50 ms', 'p95 ms', 'observe/s'],
    rows: entries.map(([name, s]) => [
      name,
      ...ks.map((k) => percent(s?.recallAtK[k])),
      ...budgets.map((b) => percent(s?.recallAtBudget[b])),
      count(s?.meanContextTokens),
      millis(s?.recallLatencyMs.p50),
      millis(s?.recallLatencyMs.p95),
      count(s?.observePerSec),
    ]),
  });

  const categoryRows: string[][] = [];
  for (const [name, s] of entries) {
    for (const [category, c] of Object.entries(s?.byCategory ?? {})) {
      categoryRows.push([
        name,
        `${category} ${CATEGORY_NAMES[category] ?? ''}`.trim(),
        String(c.questions),
        ...ks.map((k) => percent(c.recallAtK[k])),
        ...budgets.map((b) => percent(c.recallAtBudget[b])),
      ]);
    }
  }
  const byCategory = markdownTable({
    headers: ['strategy', 'category', 'questions', ...recallHeaders],
    rows: categoryRows,
    align: ['left', 'left'],
  });

  const lines = [
    `LoCoMo turn recall: ${report.conversations} conversations, ${report.questions} questions, store ${report.store}, embedder ${report.embedder}`,
    '',
    overall,
    '',
    'By category:',
    '',
    byCategory,
  ];
  return `${lines.join('\n')}\n`;
}

/** What a reader of the figures must know about the run, one sentence each. */
export function locomoNotes(notes: LocomoNotes): string[] {
  const lines: string[] = [];
  if (notes.questionsWithoutEvidence > 0) {
    lines.push(
      `${notes.questionsWithoutEvidence} non-adversarial questions have no evidence ids and are not scored.`,
    );
  }
  for (const [name, n] of Object.entries(notes.overBudget)) {
    lines.push(`${name}: ${n} contexts exceeded their budget and were scored 0.`);
  }
  for (const { strategy, reason } of notes.dropped) lines.push(`${strategy} not run: ${reason}.`);
  return lines;
}
