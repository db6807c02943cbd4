import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const appDir = join(import.meta.dirname, '..');
const workDir = mkdtempSync(join(tmpdir(), 'strata-examples-langchain-'));
const db = join(workDir, 'agent.db');

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Runs the agent as its own process (`pnpm start` does the same), typing `lines` into it. */
function chat(args: { user: string; lines: string[]; asDocumented?: boolean }): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const options = ['--db', db, '--user', args.user];
    // `asDocumented`: the README's command, through pnpm from the repository root
    const [file, argv, cwd] = args.asDocumented
      ? [
          'pnpm',
          ['--filter', '@strata-memory/examples-langchain', 'start', '--', ...options],
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
      else reject(new Error(`the agent exited with ${code}\n${stdout}\n${stderr}`));
    });
    child.stdin.end(`${args.lines.join('\n')}\n`);
  });
}

describe('examples-langchain agent', () => {
  it('remembers across a restart: two processes over one SQLite file', async () => {
    const first = await chat({
      user: 'ada',
      lines: [
        'My name is Ada and I live in Porto.',
        "I'm vegetarian.",
        'Remember that the Porto warehouse closes at six on Fridays.',
        'note: Book the Porto offsite for March',
        'What is my name?',
      ],
    });
    expect(first).toContain("assistant> Noted, I'll remember that.");
    expect(first).toContain('assistant> Saved the note.');
    expect(first).toContain('assistant> Your name is Ada.');

    const second = await chat({
      user: 'ada',
      lines: [
        'What is my name?',
        'What is my home city?',
        'What is my diet?',
        'What do you remember about the Porto warehouse?',
        'find notes about the offsite',
        '/facts',
        '/notes',
      ],
    });
    expect(second).toContain('assistant> Your name is Ada.');
    expect(second).toMatch(/assistant> From memory: .*Porto warehouse closes at six on Fridays/);
    expect(second).toContain('assistant> Notes: Book the Porto offsite for March');
    expect(second).toMatch(/name: "Ada"/);
    // read by the offline extractor from plain sentences, then used in the answers above
    expect(second).toContain('assistant> Your home city is Porto.');
    expect(second).toContain('assistant> Your diet is vegetarian.');
    expect(second).toMatch(/home city: "Porto"/);
    expect(second).toMatch(/diet: "vegetarian"/);
    expect(second).toContain('  - Book the Porto offsite for March');
  });

  it('keeps users apart in the same file', async () => {
    const other = await chat({
      user: 'bob',
      asDocumented: true,
      lines: ['What is my name?', 'find notes about the offsite'],
    });
    expect(other).toContain("assistant> I don't know your name yet.");
    expect(other).toContain('assistant> No notes found.');
  });

  it('forgets a user on request, across restarts', async () => {
    await chat({ user: 'cleo', lines: ['My name is Cleo.', 'note: Cleo likes tea', '/forget-me'] });
    const after = await chat({ user: 'cleo', lines: ['What is my name?', '/notes'] });
    expect(after).toContain("assistant> I don't know your name yet.");
    expect(after).toContain('(no notes yet)');
  });
});
