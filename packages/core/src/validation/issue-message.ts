import { closest, distance } from 'fastest-levenshtein';
import type { z } from 'zod/v4';

/** One validation problem, machine-readable: where, what, the zod code and a suggested fix. */
export interface ValidationIssue {
  path: string;
  message: string;
  code: string;
  /** The intended key for a near-miss (`userID` → `userId`), when there is one. */
  suggestion?: string;
}

const SCOPE_HINT = 'pass { orgId?, userId?, agentId?, threadId? } with at least one level';

// The zod internals this reads: an object's shape and the wrappers around it.
interface SchemaDef {
  type?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
}

function defOf(schema: z.ZodType | undefined): SchemaDef | undefined {
  return (schema as unknown as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  for (let i = 0; i < 16 && current; i++) {
    const def = defOf(current);
    const next = def?.innerType ?? def?.in;
    if (!next) return current;
    current = next;
  }
  return current;
}

/** The keys the object at `path` inside `schema` accepts, when the schema says. */
function knownKeys(schema: z.ZodType | undefined, path: readonly PropertyKey[]): string[] {
  let current = unwrap(schema);
  for (const segment of path) {
    const def = defOf(current);
    if (!def) return [];
    if (typeof segment === 'number' && def.element) current = unwrap(def.element);
    else if (def.shape && typeof segment === 'string') current = unwrap(def.shape[segment]);
    else return [];
  }
  const shape = defOf(current)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** The known key a mistyped `key` most likely meant, or undefined when none is close. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = key.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  const best = closest(key, [...known]);
  return distance(key, best) <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}

function isScopePath(path: string): boolean {
  return path === 'scope' || path.endsWith('.scope');
}

/**
 * Translates zod's issues into Strata's: each says what is wrong, names the field and the fix,
 * and for an unknown key close to a known one suggests it. `schema` (when given) is where the
 * known keys come from; `hints` maps an unknown key to where it belongs in this API; `root` names
 * the argument itself when the issue is about all of it.
 */
export function translateIssues(
  error: z.ZodError,
  schema?: z.ZodType,
  hints: Readonly<Record<string, string>> = {},
  root = 'the argument',
): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    const field = path || root;
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(schema, issue.path);
      for (const key of issue.keys) {
        const keyPath = path ? `${path}.${key}` : key;
        const suggestion = suggestKey(key, known);
        const hint = hints[key];
        const fix = suggestion
          ? `did you mean ${suggestion}?`
          : hint
            ? hint
            : known.length > 0
              ? `remove it; accepted keys: ${known.join(', ')}`
              : 'remove it';
        out.push({
          path: keyPath,
          message: `unknown key "${key}": ${fix}`,
          code: issue.code,
          ...(suggestion ? { suggestion } : {}),
        });
      }
      continue;
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      const fix = isScopePath(path || root)
        ? SCOPE_HINT
        : `pass a ${issue.expected === 'nonoptional' ? 'value' : issue.expected}`;
      out.push({ path, message: `${field} is required: ${fix}`, code: issue.code });
      continue;
    }
    if (issue.code === 'invalid_type') {
      const got = issue.input === null ? 'null' : Array.isArray(issue.input) ? 'array' : typeof issue.input;
      out.push({
        path,
        message: `${field} must be ${issue.expected === 'nonoptional' ? 'set' : `a ${issue.expected}`} (got ${got})`,
        code: issue.code,
      });
      continue;
    }
    out.push({ path, message: issue.message, code: issue.code });
  }
  return out;
}
