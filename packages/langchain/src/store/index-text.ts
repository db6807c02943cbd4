import { invalidInput } from '@strata-memory/core';

/**
 * The texts a store item is indexed by for `search({ query })`, from LangGraph's field paths:
 * `$` (the whole document), `field`, `nested.field`, `list[*]`, `list[0]`, `list[-1]`, and
 * combinations (`chapters[*].title`). Each text reads `path: value`, one line per scalar leaf, so a
 * query can match a field's name as well as its value.
 */

type Step = { field: string } | { index: number } | { every: true };

const STEP = /^([^.[\]{},*]+)?((?:\[(?:\*|-?\d+)\])*)$/;

/** Parses one field path; a path outside the supported syntax is `invalid_input`. */
export function parseFieldPath(path: string, where: string): Step[] | '$' {
  if (path === '$') return '$';
  const steps: Step[] = [];
  for (const segment of path.split('.')) {
    const match = STEP.exec(segment);
    if (!segment || !match || (!match[1] && !match[2])) {
      throw invalidInput(
        `${where}: unsupported index field "${path}". Use "$", "field", "a.b", "list[*]", "list[0]" or "list[-1]".`,
        { field: path },
      );
    }
    if (match[1]) steps.push({ field: match[1] });
    for (const bracket of match[2]!.match(/\[(\*|-?\d+)\]/g) ?? []) {
      const inner = bracket.slice(1, -1);
      steps.push(inner === '*' ? { every: true } : { index: Number(inner) });
    }
  }
  return steps;
}

/** `path: value` lines for every scalar leaf under `value` (document order). */
function leafLines(value: unknown, path: string, out: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object' || v === null)) {
      const scalars = value.filter((v) => v !== null && v !== undefined).map(String);
      if (scalars.length > 0) out.push(`${path}: ${scalars.join(', ')}`);
      return;
    }
    for (const [i, item] of value.entries()) leafLines(item, `${path}[${i}]`, out);
    return;
  }
  if (typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) leafLines(inner, path ? `${path}.${key}` : key, out);
    return;
  }
  const text = String(value).trim();
  if (text) out.push(path ? `${path}: ${text}` : text);
}

function select(value: unknown, steps: Step[], path: string): Array<{ path: string; value: unknown }> {
  if (steps.length === 0) return [{ path, value }];
  const [step, ...rest] = steps;
  if (step && 'field' in step) {
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      !Object.hasOwn(value, step.field)
    ) {
      return [];
    }
    const inner = (value as Record<string, unknown>)[step.field];
    return select(inner, rest, path ? `${path}.${step.field}` : step.field);
  }
  if (!Array.isArray(value)) return [];
  if (step && 'every' in step) return value.flatMap((item, i) => select(item, rest, `${path}[${i}]`));
  const index = step!.index < 0 ? value.length + step!.index : step!.index;
  if (index < 0 || index >= value.length) return [];
  return select(value[index], rest, `${path}[${index}]`);
}

/** The texts to index `document` by, for the given field paths (already validated). */
export function indexTexts(document: Record<string, unknown>, fields: ReadonlyArray<Step[] | '$'>): string[] {
  const texts: string[] = [];
  for (const field of fields) {
    const matches = field === '$' ? [{ path: '', value: document }] : select(document, field, '');
    for (const match of matches) {
      const lines: string[] = [];
      leafLines(match.value, match.path, lines);
      if (lines.length > 0) texts.push(lines.join('\n'));
    }
  }
  return [...new Set(texts)];
}
