import { table } from '../output.ts';
import type { ExplainLine, Failure } from './check-expectations.ts';
import type { CaseResult } from './run-case.ts';
import type { EvalReport } from './run-eval.ts';

/**
 * The report a person reads: a pass/fail table, then for each failed case every failed
 * expectation with what was there instead, the `explain()` entries behind it and the block.
 */
export function formatEvalReport(report: EvalReport): string {
  const rows = report.cases.map((c) => [
    c.passed ? 'pass' : 'FAIL',
    c.name,
    c.error ? 'error' : `${c.checks - c.failures.length}/${c.checks}`,
    c.recall ? c.recall.tokens : '',
  ]);
  const parts = [table(['result', 'case', 'checks', 'tokens'], rows)];
  for (const result of report.cases.filter((c) => !c.passed)) parts.push(formatFailure(result));
  parts.push(
    report.failed === 0
      ? `${report.passed} of ${report.total} cases passed (${report.store}).`
      : `${report.failed} of ${report.total} cases failed (${report.store}).`,
  );
  return parts.join('\n\n');
}

function formatFailure(result: CaseResult): string {
  const lines = [`FAIL ${result.name}`];
  if (result.error) {
    lines.push(`  ${result.error.step} failed (${result.error.code}): ${indent(result.error.message, '  ')}`);
    return lines.join('\n');
  }
  for (const failure of result.failures) lines.push(...formatExpectation(failure));
  if (result.recall) {
    lines.push(`  the recall for "${result.recall.query}" (${result.recall.tokens} tokens) rendered:`);
    lines.push(...(result.recall.block || '(an empty block)').split('\n').map((line) => `    | ${line}`));
  }
  return lines.join('\n');
}

function formatExpectation(failure: Failure): string[] {
  const lines = [`  ✗ ${failure.expectation}: ${failure.message}`];
  for (const detail of failure.details) lines.push(`      ${detail}`);
  for (const entry of failure.explain) lines.push(`      ${formatExplain(entry)}`);
  return lines;
}

/** `explain: episodes ep_… left out (token budget) score 0.41 — "text…"` */
function formatExplain(entry: ExplainLine): string {
  const state = entry.included ? 'in' : 'left out';
  const score = entry.final === undefined ? '' : ` score ${entry.final.toFixed(2)}`;
  const text = entry.text
    ? ` — "${entry.text.length > 90 ? `${entry.text.slice(0, 90)}…` : entry.text}"`
    : '';
  return `explain: ${entry.layer} ${state}${score}: ${entry.reason}${text}`;
}

function indent(text: string, prefix: string): string {
  return text.split('\n').join(`\n${prefix}`);
}
