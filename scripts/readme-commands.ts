/**
 * `pnpm check:readme-commands`: every shell command in every README (```sh and ```bash blocks)
 * runs as written, from the repository root, one after another in README order. Variables a
 * command sets (`export X=…`, `id=$(…)`) are seen by the commands after it in the same README.
 *
 * A comment line `# CI: …` applies to the command after it, or to every command of the block when it
 * comes before the block's first command (see CONTRIBUTING.md):
 *   # CI: not run (reason)   skip it; the reason is required
 *   # CI: exit 2             it must exit with this code instead of 0
 *   # CI: stop after 10s     a server: stopped after that long, passes if it has not failed by then
 *
 * Run from the repository root: `node --experimental-strip-types scripts/readme-commands.ts [README…]`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';

export interface ReadmeCommand {
  file: string;
  line: number;
  command: string;
  /** Why it is not run; undefined when it runs. */
  skip?: string;
  exitCode: number;
  /** Seconds after which a long-running command is stopped. */
  stopAfter?: number;
}

const SHELLS = new Set(['sh', 'bash', 'shell']);

/** The commands of one README's shell blocks, with their markers applied. */
export function extractCommands(markdown: string, file = 'README.md'): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  const visit = (node: { type: string; children?: unknown[] }) => {
    if (node.type === 'code') {
      const code = node as unknown as {
        lang?: string | null;
        value: string;
        position?: { start: { line: number } };
      };
      if (code.lang && SHELLS.has(code.lang)) {
        commands.push(...parseBlock(code.value, file, (code.position?.start.line ?? 0) + 1));
      }
    }
    for (const child of (node.children ?? []) as { type: string; children?: unknown[] }[]) visit(child);
  };
  visit(fromMarkdown(markdown));
  return commands;
}

/** The commands of one shell block whose first line is line `first` of `file`. */
export function parseBlock(block: string, file: string, first: number): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  let blockWide: Omit<ReadmeCommand, 'file' | 'line' | 'command'> = { exitCode: 0 };
  let pending = blockWide;
  const lines = block.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]?.trim() ?? '';
    if (line === '') continue;
    if (line.startsWith('#')) {
      const marker = /^#\s*CI:\s*(.*)$/.exec(line)?.[1]?.trim();
      if (marker !== undefined) pending = applyMarker(pending, marker, `${file}:${first + i}`);
      if (commands.length === 0) blockWide = pending;
      continue;
    }
    const start = i;
    let command = lines[i] ?? '';
    while (command.trimEnd().endsWith('\\') && i + 1 < lines.length) {
      i++;
      command = `${command.trimEnd().slice(0, -1)}${lines[i]}`;
    }
    commands.push({ file, line: first + start, command: command.trim().replace(/\s+/g, ' '), ...pending });
    pending = blockWide;
  }
  return commands;
}

function applyMarker(
  pending: Omit<ReadmeCommand, 'file' | 'line' | 'command'>,
  marker: string,
  where: string,
): Omit<ReadmeCommand, 'file' | 'line' | 'command'> {
  const skip = /^not run \((.+)\)$/.exec(marker);
  if (skip) return { ...pending, skip: skip[1] };
  const exit = /^exit (\d+)$/.exec(marker);
  if (exit) return { ...pending, exitCode: Number(exit[1]) };
  const stop = /^stop after (\d+)s$/.exec(marker);
  if (stop) return { ...pending, stopAfter: Number(stop[1]) };
  throw new Error(
    `${where}: unknown marker "# CI: ${marker}"; use "not run (reason)", "exit N" or "stop after Ns"`,
  );
}

/** Every README in the repository: the root's, then each package's and app's. */
export function readmes(root: string): string[] {
  const found = ['README.md'];
  for (const dir of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name, 'README.md');
      if (existsSync(join(root, path))) found.push(path);
    }
  }
  return found;
}

function main(): void {
  const root = join(import.meta.dirname, '..');
  const files = process.argv.length > 2 ? process.argv.slice(2) : readmes(root);
  const commands = files.flatMap((file) => extractCommands(readFileSync(join(root, file), 'utf8'), file));
  let failed = 0;
  let skipped = 0;
  const stateDir = mkdtempSync(join(tmpdir(), 'readme-commands-'));
  for (const c of commands) {
    // A README's commands share one shell environment, saved between commands.
    const state = join(stateDir, c.file.replaceAll('/', '_'));
    const where = `${c.file}:${c.line}`;
    if (c.skip !== undefined) {
      skipped++;
      console.log(`- ${where} not run (${c.skip}): ${c.command}`);
      continue;
    }
    const started = Date.now();
    const script = `set -a -o pipefail; [ -f "$STATE" ] && . "$STATE"\n${c.command}\nrc=$?; export -p > "$STATE"; exit $rc`;
    // coreutils' timeout signals the whole process group: a server's children stop with it.
    const argv =
      c.stopAfter === undefined
        ? ['bash', '-c', script]
        : ['timeout', `${c.stopAfter}s`, 'bash', '-c', script];
    const result = spawnSync(argv[0] as string, argv.slice(1), {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', STATE: state },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const stopped = c.stopAfter !== undefined && result.status === 124;
    const ok = stopped || result.status === c.exitCode;
    if (ok) {
      console.log(`✓ ${where} (${seconds}s${stopped ? ', stopped' : ''}): ${c.command}`);
      continue;
    }
    failed++;
    console.error(
      `✗ ${where} exited ${result.status ?? result.signal}, expected ${c.exitCode}: ${c.command}`,
    );
    console.error(`${result.stdout}${result.stderr}`.trimEnd().split('\n').slice(-30).join('\n'));
  }
  rmSync(stateDir, { recursive: true, force: true });
  console.log(
    `README commands: ${commands.length - skipped - failed} passed, ${failed} failed, ${skipped} not run (marked)`,
  );
  if (failed > 0) process.exit(1);
}

if (import.meta.main) main();
