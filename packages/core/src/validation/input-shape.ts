import { unstorableTextReason } from './storable-text.ts';

/**
 * One walk over an argument before any schema sees it: rejects cycles, nesting deeper than
 * `maxDepth`, and strings (values or object keys) no store can hold as written. Schemas recurse,
 * so without this a value nested thousands deep failed with a `RangeError` and a circular one with
 * a `TypeError`; now both are an `invalid_input` naming the path. Iterative: no depth overflows it.
 */

export interface InputShapeIssue {
  /** Dotted path to the offending value (`''` for the argument itself). */
  path: string;
  message: string;
}

/** Only arrays and plain objects are walked; class instances (an `AbortSignal`, a `Date`) are left to the schemas. */
function isWalkable(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const joinPath = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

/** The first problem in `input`, or `undefined` when its shape is fine. */
export function inputShapeIssue(input: unknown, options: { maxDepth: number }): InputShapeIssue | undefined {
  if (typeof input === 'string') {
    const reason = unstorableTextReason(input);
    return reason ? { path: '', message: reason } : undefined;
  }
  if (!isWalkable(input)) return undefined;
  // Depth-first with an explicit stack; `ancestors` holds the containers on the current path, so a
  // value shared by two branches (not a cycle, and fine in JSON) is not mistaken for one.
  const ancestors = new Set<object>();
  type Frame = { value: object; path: string; depth: number; exit?: true };
  const stack: Frame[] = [{ value: input, path: '', depth: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.exit) {
      ancestors.delete(frame.value);
      continue;
    }
    if (ancestors.has(frame.value)) return { path: frame.path, message: 'must not be circular' };
    if (frame.depth > options.maxDepth) {
      return { path: frame.path, message: `must not be nested more than ${options.maxDepth} levels deep` };
    }
    ancestors.add(frame.value);
    stack.push({ ...frame, exit: true });
    // Indexed loops, no entry arrays: a call's vectors hold thousands of numbers.
    const visit = (key: string | number, value: unknown): InputShapeIssue | undefined => {
      if (typeof value === 'string') {
        const reason = unstorableTextReason(value);
        return reason ? { path: joinPath(frame.path, key), message: reason } : undefined;
      }
      if (isWalkable(value)) stack.push({ value, path: joinPath(frame.path, key), depth: frame.depth + 1 });
      return undefined;
    };
    if (Array.isArray(frame.value)) {
      const array: unknown[] = frame.value;
      for (let i = 0; i < array.length; i++) {
        const issue = visit(i, array[i]);
        if (issue) return issue;
      }
    } else {
      const record = frame.value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const reason = unstorableTextReason(key);
        if (reason) return { path: joinPath(frame.path, key), message: `key ${reason}` };
        const issue = visit(key, record[key]);
        if (issue) return issue;
      }
    }
  }
  return undefined;
}
