import { invalidInput, type JsonValue, type ScopeSnapshot } from '@strata-memory/core';
import { sortKeys } from '@strata-memory/core/internals';
import { FACTS_HEADING } from './render-scope-markdown.ts';

/** A fact whose value was changed by hand in a scope's Markdown file. */
export interface FactEdit {
  /** The fact's current version, as the JSON twin holds it. */
  fact: ScopeSnapshot['facts'][number];
  /** The value the file now gives. */
  value: JsonValue;
  file: string;
  /** 1-based. */
  line: number;
}

const MARKED = /^- (.*) <!-- fact:(.+?) -->\s*$/;
const NO_VALUE = /^- .* \(no current value\)\s*$/;

const same = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));

/**
 * The fact values changed in a scope's Markdown: the lines `- key: <JSON value> <!-- fact:id -->`
 * of its Facts section, compared with the current versions in the JSON twin. A line that no longer
 * parses (a value that is not JSON, a lost marker or key, an id that is not a current fact of the
 * scope) is `invalid_input` naming the file and line.
 */
export function readFactEdits(text: string, file: string, section: ScopeSnapshot): FactEdit[] {
  const current = new Map(
    section.facts.filter((f) => f.status === 'active' || f.status === 'stale').map((f) => [f.id, f]),
  );
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => line.trimEnd() === FACTS_HEADING);
  if (start < 0) return [];
  const fail = (index: number, message: string) =>
    invalidInput(`${file}:${index + 1}: ${message}`, { file, line: index + 1 });
  const edits: FactEdit[] = [];
  const seen = new Set<string>();
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('## ')) break;
    if (!line.startsWith('- ') || NO_VALUE.test(line)) continue;
    const match = MARKED.exec(line);
    if (!match) throw fail(i, 'a fact line must end with its <!-- fact:id --> marker; edit only the value');
    const [, body, id] = match as unknown as [string, string, string];
    const fact = current.get(id);
    if (!fact) throw fail(i, `fact ${id} is not a current fact of this scope in memory.json`);
    if (seen.has(id)) throw fail(i, `fact ${id} appears twice`);
    seen.add(id);
    const prefix = `${fact.key}: `;
    if (!body.startsWith(prefix)) throw fail(i, `the line of fact ${id} must start with "- ${prefix}"`);
    let value: JsonValue;
    try {
      value = JSON.parse(body.slice(prefix.length)) as JsonValue;
    } catch (error) {
      throw fail(
        i,
        `the value of "${fact.key}" is not JSON (text needs double quotes, e.g. "30 days"): ${(error as Error).message}`,
      );
    }
    if (!same(value, fact.value)) edits.push({ fact, value, file, line: i + 1 });
  }
  return edits;
}
