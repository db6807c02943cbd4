import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Pins the public surface: the value exports of each package.json entry must be exactly the names
 * `docs/core/api.md` lists for that entry, so a new export cannot ship undocumented and a
 * documented one cannot silently disappear.
 */
const packageDir = join(import.meta.dirname, '..');
const apiPage = join(packageDir, '..', '..', 'docs', 'core', 'api.md');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, Record<string, string>>;
};

/** The entries' specifiers (`@strata-memory/core/store`) and their source files, from the export map. */
const entries = Object.entries(manifest.exports).map(([subpath, conditions]) => ({
  specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
  source: join(packageDir, conditions['@strata-memory/source'] ?? ''),
}));

/**
 * The names an API page documents per entry: each `## \`<specifier>\`` section's table rows whose
 * first cell is one code span.
 */
function documentedExports(markdown: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^## `([^`]+)`\s*$/.exec(line);
    if (heading?.[1]) {
      current = [];
      sections.set(heading[1], current);
      continue;
    }
    if (line.startsWith('#')) current = undefined;
    const row = /^\|\s*`([A-Za-z_$][\w$]*)`\s*\|/.exec(line);
    if (row?.[1] && current) current.push(row[1]);
  }
  return sections;
}

const documented = documentedExports(readFileSync(apiPage, 'utf8'));

describe('public surface', () => {
  it('documents exactly the entries package.json exports', () => {
    expect([...documented.keys()].sort()).toEqual(entries.map((entry) => entry.specifier).sort());
  });

  for (const entry of entries) {
    it(`${entry.specifier} exports exactly the names docs/core/api.md lists for it`, async () => {
      const exported = Object.keys(await import(entry.source)).sort();
      const listed = documented.get(entry.specifier) ?? [];
      expect(listed.length, 'a name is listed twice').toBe(new Set(listed).size);
      expect(exported).toEqual([...listed].sort());
    });
  }

  it('reads names from the section they are under, and only from table rows', () => {
    const page = [
      '## `pkg`',
      'prose with `notAName` in it',
      '| export | what |',
      '| `one` | first |',
      '### details',
      '| `skipped` | under another heading |',
      '## `pkg/sub`',
      '| `two` | second |',
    ].join('\n');
    expect(Object.fromEntries(documentedExports(page))).toEqual({ pkg: ['one'], 'pkg/sub': ['two'] });
  });
});
