import { StrataError } from '@strata-memory/core';

/** Exit codes every command keeps: scripts and CI may rely on them. */
export const EXIT = {
  ok: 0,
  /** The command ran and found a failure (an eval case failed). */
  failed: 1,
  /** Bad input: a usage error, an invalid argument, an unknown id or scope, a decided review item. */
  usage: 2,
  /** The store or another dependency failed (down, locked, a bug). */
  error: 3,
} as const;

/** How a command prints: `--json` gives one JSON document on stdout, otherwise text for a person. */
export interface Output {
  json: boolean;
  /** Writes a result: `value` as JSON with `--json`, else the text `human()` returns. */
  result(value: unknown, human: () => string): void;
  /** Progress and notices for a person, on stderr (never mixed into `--json` output). */
  progress(message: string): void;
}

export function createOutput(
  options: { json?: boolean },
  streams = { out: process.stdout, err: process.stderr },
): Output {
  const json = options.json ?? false;
  return {
    json,
    result(value, human) {
      streams.out.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
    },
    progress(message) {
      if (streams.err.isTTY || !json) streams.err.write(`${message}\n`);
    },
  };
}

/** A thrown error as the line a person reads and the exit code a script reads. */
export function describeError(error: unknown): {
  message: string;
  code: number;
  json: Record<string, unknown>;
} {
  if (StrataError.isInstance(error)) {
    const code = ['invalid_input', 'invalid_scope', 'not_found', 'conflict'].includes(error.code)
      ? EXIT.usage
      : EXIT.error;
    return {
      message: `strata: ${error.message} (${error.code})`,
      code,
      json: { error: { code: error.code, message: error.message, details: error.details ?? null } },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message: `strata: ${message}`, code: EXIT.error, json: { error: { code: 'error', message } } };
}

/** Renders rows as an aligned text table (header, rule, rows). */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
