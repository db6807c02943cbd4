export type Align = 'left' | 'right';

/** A GitHub-flavoured Markdown table with padded columns: readable in a terminal and in a README. */
export function markdownTable(args: { headers: string[]; rows: string[][]; align?: Align[] }): string {
  const { headers, rows } = args;
  const align = headers.map((_, i) => args.align?.[i] ?? (i === 0 ? 'left' : 'right'));
  const widths = headers.map((header, i) =>
    Math.max(3, header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const pad = (cell: string, i: number) =>
    align[i] === 'left' ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!);
  const line = (cells: string[]) => `| ${cells.map((cell, i) => pad(cell, i)).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (align[i] === 'left' ? `:${'-'.repeat(w - 1)}` : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(headers), rule, ...rows.map((row) => line(headers.map((_, i) => row[i] ?? '')))].join('\n');
}
