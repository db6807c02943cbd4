import { styleText } from 'node:util';

/**
 * The demo's only output module: a few line shapes, coloured on a terminal and plain otherwise.
 * `styleText` checks the stream itself, so colour is dropped when stdout is not a TTY or when
 * `NO_COLOR` (or `NODE_DISABLE_COLORS`) is set, and forced with `FORCE_COLOR`.
 */

type Style = Parameters<typeof styleText>[0];

function paint(style: Style, text: string): string {
  return styleText(style, text, { stream: process.stdout });
}

function line(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/** `━━ 3 · A correction wins ━━━━…` */
export function sceneTitle(number: number | string, title: string): void {
  const head = `━━ ${number} · ${title} `;
  line();
  line(paint(['bold', 'cyan'], head.padEnd(96, '━')));
}

/** A sentence of narration: what is about to happen. */
export function narrate(text: string): void {
  line(paint('dim', text));
}

/** `Session 2 · Wed 2026-03-04 · Maria (procurement manager)` */
export function sessionHeader(text: string): void {
  line();
  line(paint(['bold'], `▸ ${text}`));
}

/** What a person typed. */
export function said(speaker: string, text: string): void {
  line(`  ${paint(['bold', 'yellow'], `${speaker} ›`)} ${text}`);
}

/** What Strata decided about it. */
export function decided(text: string): void {
  line(`      ${paint('magenta', 'Strata ›')} ${text}`);
}

/** A line of supporting detail under a step. */
export function detail(text: string): void {
  line(`      ${paint('dim', text)}`);
}

/** A heading for a block that follows (e.g. "the agent is told (212 tokens …):"). */
export function label(text: string): void {
  line(`      ${paint('blue', text)}`);
}

/** A quoted block: the rendered memory, a summary, a history table. */
export function quote(text: string): void {
  for (const row of text.split('\n')) line(`      ${paint('dim', '│')} ${row}`);
}

/** A claim's verdict. */
export function verdict(ok: boolean, claim: string, why?: string): void {
  const mark = ok ? paint(['bold', 'green'], '✓') : paint(['bold', 'red'], '✗');
  line(`  ${mark} ${claim}${!ok && why ? paint('red', ` — ${why}`) : ''}`);
}

/** A standalone notice (previous run found, the final tally). */
export function notice(text: string, tone: 'info' | 'good' | 'bad' = 'info'): void {
  const style: Style = tone === 'good' ? ['bold', 'green'] : tone === 'bad' ? ['bold', 'red'] : 'bold';
  line(paint(style, text));
}

/** `1 fact`, `3 facts`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function blank(): void {
  line();
}
