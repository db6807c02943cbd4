import { markdownTable } from '../report/markdown-table.ts';
import { count } from '../report/number-format.ts';
import { EXTRACTION_KINDS } from './corpus.ts';
import type { ExtractReport } from './run-extract.ts';
import { type Metrics, SCORE_UNITS } from './score.ts';

const fraction = (value: number | null) => (value === null ? '—' : value.toFixed(3));

function row(label: string, m: Metrics): string[] {
  return [
    label,
    count(m.items),
    count(m.tp),
    count(m.fp),
    count(m.fn),
    fraction(m.precision),
    fraction(m.recall),
    fraction(m.f1),
  ];
}

/** One table per half: every kind, every unit, and the overall figures. */
export function extractTable(report: ExtractReport): string {
  const headers = ['', 'items', 'tp', 'fp', 'fn', 'precision', 'recall', 'F1'];
  return report.halves
    .map((half) => {
      const rows = [
        ...EXTRACTION_KINDS.map((kind) => row(kind, half.byKind[kind])),
        ...SCORE_UNITS.map((unit) => row(`(${unit})`, half.byUnit[unit])),
        row('overall', half.overall),
      ];
      const calls = half.modelCalls === undefined ? '' : `, ${count(half.modelCalls)} model calls`;
      return `extractor ${report.extractor}, half ${half.half}: ${count(half.turns)} turns${calls}, ${count(half.extractionFailures)} failed extractions (audited, turns kept)\n\n${markdownTable({ headers, rows })}\n`;
    })
    .join('\n');
}
