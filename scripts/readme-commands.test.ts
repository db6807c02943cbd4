import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractCommands, parseBlock } from './readme-commands.ts';

const fence = '```';

test('takes commands from sh and bash blocks only, with their README line', () => {
  const md = [
    '# Title',
    '',
    `${fence}sh`,
    'pnpm install',
    `${fence}`,
    '',
    `${fence}ts`,
    'const x = 1;',
    `${fence}`,
    '',
    `${fence}bash`,
    'pnpm demo',
    `${fence}`,
  ].join('\n');
  const commands = extractCommands(md, 'X.md');
  assert.deepEqual(
    commands.map((c) => [c.line, c.command]),
    [
      [4, 'pnpm install'],
      [12, 'pnpm demo'],
    ],
  );
});

test('joins continued lines and ignores comments and blank lines', () => {
  const commands = parseBlock('# set up\n\npnpm strata \\\n  --db x.db \\\n  stats\necho done', 'R.md', 10);
  assert.deepEqual(
    commands.map((c) => [c.line, c.command]),
    [
      [12, 'pnpm strata --db x.db stats'],
      [15, 'echo done'],
    ],
  );
});

test('a marker applies to the next command only', () => {
  const [, first, second] = parseBlock(
    'pnpm install\n# CI: not run (needs an API key)\npnpm a\npnpm b',
    'R.md',
    1,
  );
  assert.equal(first?.skip, 'needs an API key');
  assert.equal(second?.skip, undefined);
});

test('markers declare an exit code and a stop time', () => {
  const [, exit, server] = parseBlock(
    'pnpm install\n# CI: exit 2\npnpm a\n# CI: stop after 15s\npnpm serve',
    'R.md',
    1,
  );
  assert.equal(exit?.exitCode, 2);
  assert.equal(server?.stopAfter, 15);
  assert.equal(server?.exitCode, 0);
});

test('an unknown marker or a skip without a reason is an error naming the line', () => {
  assert.throws(() => parseBlock('echo a\n# CI: skip\necho b', 'R.md', 7), /R\.md:8: unknown marker/);
  assert.throws(() => parseBlock('# CI: not run\necho b', 'R.md', 1), /unknown marker/);
});

test('a marker before the first command applies to the whole block', () => {
  const [a, b, c] = parseBlock(
    '# CI: not run (not on npm yet)\npnpm add x\npnpm add y\n# CI: exit 1\npnpm z',
    'R.md',
    1,
  );
  assert.equal(a?.skip, 'not on npm yet');
  assert.equal(b?.skip, 'not on npm yet');
  assert.equal(c?.exitCode, 1);
});
