import { readFileSync } from 'node:fs';
import { invalidInput } from '@strata-memory/core';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod/v4';
import { type CaseFile, caseFileSchema } from './case-file-schema.ts';
import { knownKeysAt, suggestKey } from './schema-keys.ts';

/** One problem in a case file, where it is and what is wrong. */
export interface CaseFileProblem {
  /** `cases[1].expect.notContains` */
  path: string;
  /** The case's name when the problem is inside a case. */
  caseName?: string;
  /** 1-based line of the offending node, when known. */
  line?: number;
  message: string;
}

/**
 * Reads and validates a case file. A YAML syntax error or a field that does not fit the format
 * throws `invalid_input` listing every problem with its line, the case's name and the field, and
 * for an unknown key the nearest known one.
 */
export function loadCaseFile(file: string): CaseFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw invalidInput(`cannot read the case file ${file}: ${(error as Error).message}`, { file });
  }
  return parseCaseFile(text, file);
}

/** Parses case-file text (YAML); `file` names it in errors. */
export function parseCaseFile(text: string, file: string): CaseFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((error) => ({
      path: '',
      line: lineCounter.linePos(error.pos[0]).line,
      message: error.message.split('\n')[0] ?? error.message,
    }));
    throw problemsError(file, problems);
  }
  const data: unknown = doc.toJS();
  const parsed = caseFileSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issues = flattenIssues(parsed.error.issues);
  // An unknown key explains the object's other complaints (e.g. "an action needs one of …").
  const unknownAt = new Set(
    issues.filter((i) => i.code === 'unrecognized_keys').map((i) => i.path.join('.')),
  );
  const shown = issues.filter((i) => i.code !== 'custom' || !unknownAt.has(i.path.join('.')));
  const problems = shown.map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const node = nearestNode(doc, path);
    const line = node?.range ? lineCounter.linePos(node.range[0]).line : undefined;
    return {
      path: formatPath(path),
      caseName: caseNameAt(data, path),
      ...(line === undefined ? {} : { line }),
      message: describeIssue(issue, path),
    };
  });
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  throw problemsError(file, problems);
}

/** The `invalid_input` error listing a case file's problems (`details.issues`). */
export function problemsError(file: string, problems: CaseFileProblem[]) {
  const lines = problems.map((p) => {
    const where = [
      p.line === undefined ? file : `${file}:${p.line}`,
      p.caseName === undefined ? undefined : `case "${p.caseName}"`,
      p.path || undefined,
    ].filter((part) => part !== undefined);
    return `  ${where.join(' › ')}: ${p.message}`;
  });
  const count = problems.length === 1 ? 'one problem' : `${problems.length} problems`;
  return invalidInput(`${file} is not a valid case file (${count}):\n${lines.join('\n')}`, {
    file,
    issues: problems,
  });
}

type Issue = z.core.$ZodIssue;

/**
 * A union's failure as the issues of the branch the input meant: the branch that got past the
 * type check (e.g. the object form of a scope with an unknown key), else the first.
 */
function flattenIssues(issues: readonly Issue[]): Issue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
    const branches = issue.errors;
    const meant =
      branches.find((branch) => branch.some((i) => i.code !== 'invalid_type' || i.path.length > 0)) ??
      branches[0] ??
      [];
    return flattenIssues(meant.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue));
  });
}

function describeIssue(issue: Issue, path: Array<string | number>): string {
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(caseFileSchema, path);
    return issue.keys
      .map((key) => {
        const suggestion = suggestKey(key, known);
        const hint = suggestion
          ? `; did you mean "${suggestion}"?`
          : known.length > 0
            ? `; known keys: ${known.join(', ')}`
            : '';
        return `unknown key "${key}"${hint}`;
      })
      .join('; ');
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  return issue.message;
}

/** `cases[1].expect.notContains` */
function formatPath(path: Array<string | number>): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

function caseNameAt(data: unknown, path: Array<string | number>): string | undefined {
  if (path[0] !== 'cases' || typeof path[1] !== 'number') return undefined;
  const cases = (data as { cases?: unknown }).cases;
  if (!Array.isArray(cases)) return undefined;
  const name = (cases[path[1]] as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name.trim().length > 0 ? name : `#${path[1] + 1}`;
}

/** The YAML node at `path`, or its nearest ancestor that exists (a missing field's parent). */
function nearestNode(
  doc: ReturnType<typeof parseDocument>,
  path: Array<string | number>,
): { range?: [number, number, number] | null } | undefined {
  for (let n = path.length; n >= 0; n -= 1) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] | null } | undefined;
    if (node && typeof node === 'object' && 'range' in node) return node;
  }
  return undefined;
}
