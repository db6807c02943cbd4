import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = join(import.meta.dirname, '..');

/** Imports `entry` in a fresh Node process in which `blocked` packages cannot be resolved. */
async function importWithout(entry: string, blocked: string[]): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [
      '--conditions=@strata-memory/source',
      '--import',
      './test/fixtures/block-peers.mjs',
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(entry)}); console.log('exports:' + JSON.stringify(Object.keys(m).sort()));`,
    ],
    { cwd: packageDir, env: { ...process.env, STRATA_BLOCKED_PEERS: blocked.join(',') } },
  );
  // Only the marked line: a dependency may print its own notices on import.
  const line = stdout.split('\n').find((l) => l.startsWith('exports:'));
  if (!line) throw new Error(`no export list in the output:\n${stdout}`);
  return JSON.parse(line.slice('exports:'.length)) as string[];
}

describe('optional peer dependencies', () => {
  it('the main entry needs only @langchain/core', async () => {
    const names = await importWithout('@strata-memory/langchain', ['langchain', '@langchain/langgraph']);
    expect(names).toEqual(
      expect.arrayContaining([
        'StrataChatMessageHistory',
        'StrataMemory',
        'StrataRetriever',
        'langChainEmbedder',
        'langChainExtractor',
        'strataMemoryTools',
      ]),
    );
  });

  it('the store entry needs @langchain/langgraph, not langchain', async () => {
    expect(await importWithout('@strata-memory/langchain/store', ['langchain'])).toEqual(
      expect.arrayContaining(['StrataStore', 'namespaceLevels']),
    );
  });

  it('the blocker really blocks: the store entry fails without @langchain/langgraph', async () => {
    await expect(importWithout('@strata-memory/langchain/store', ['@langchain/langgraph'])).rejects.toThrow(
      /@langchain\/langgraph/,
    );
  });

  it('the middleware entry loads with langchain installed', async () => {
    expect(await importWithout('@strata-memory/langchain/middleware', [])).toEqual(
      expect.arrayContaining(['strataMemoryMiddleware']),
    );
  });
});
