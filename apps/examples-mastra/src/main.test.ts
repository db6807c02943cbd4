import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const appDir = join(import.meta.dirname, '..');
const workDir = mkdtempSync(join(tmpdir(), 'strata-examples-mastra-'));
const db = join(workDir, 'chat.db');

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Runs the chat as its own process (`pnpm start` does the same), typing `lines` into it. */
function chat(args: {
  user: string;
  lines: string[];
  session?: string;
  asDocumented?: boolean;
}): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const options = ['--db', db, '--user', args.user, ...(args.session ? ['--session', args.session] : [])];
    // `asDocumented`: the README's command, through pnpm from the repository root
    const [file, argv, cwd] = args.asDocumented
      ? [
          'pnpm',
          ['--filter', '@strata-memory/examples-mastra', 'start', '--', ...options],
          join(appDir, '../..'),
        ]
      : [process.execPath, ['--conditions=@strata-memory/source', 'src/main.ts', ...options], appDir];
    const child = spawn(file, argv, {
      cwd,
      env: { ...process.env, STRATA_OFFLINE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise(stdout);
      else reject(new Error(`chat exited with ${code}\n${stdout}\n${stderr}`));
    });
    child.stdin.end(`${args.lines.join('\n')}\n`);
  });
}

describe('examples-mastra chat', () => {
  it('remembers across a restart: two processes over one SQLite file', async () => {
    const first = await chat({
      user: 'ada',
      session: 'first',
      lines: [
        'My name is Ada and I live in Porto.',
        "I'm vegetarian.",
        'My favourite city is Lisbon.',
        'What is my name?',
      ],
    });
    expect(first).toContain('assistant> Your name is Ada.');

    // A new process and a new thread: long-term memory comes back from the file.
    const second = await chat({
      user: 'ada',
      lines: [
        'What is my favourite city?',
        'What is my name?',
        'What is my home city?',
        'What is my diet?',
        '/facts',
      ],
    });
    expect(second).toContain('assistant> Your favourite city is Lisbon.');
    expect(second).toContain('assistant> Your name is Ada.');
    expect(second).toMatch(/favourite city: "Lisbon"/);
    // read by the offline extractor from plain sentences, then used in the answers above
    expect(second).toContain('assistant> Your home city is Porto.');
    expect(second).toContain('assistant> Your diet is vegetarian.');
    expect(second).toMatch(/home city: "Porto"/);
    expect(second).toMatch(/diet: "vegetarian"/);

    // The same thread again: its history comes back too.
    const resumed = await chat({ user: 'ada', session: 'first', lines: ['What did I say last?'] });
    expect(resumed).toContain('assistant> You said: "What is my name?"');
  });

  it('keeps resources apart in the same file', async () => {
    const other = await chat({ user: 'bob', asDocumented: true, lines: ['What is my name?'] });
    expect(other).toContain("assistant> I don't know your name yet.");
  });

  it('forgets a resource on request, across restarts', async () => {
    await chat({ user: 'cleo', lines: ['My name is Cleo.', '/forget-me'] });
    const after = await chat({ user: 'cleo', lines: ['What is my name?'] });
    expect(after).toContain("assistant> I don't know your name yet.");
  });
});
