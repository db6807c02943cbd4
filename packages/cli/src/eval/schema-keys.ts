import { closest, distance } from 'fastest-levenshtein';
import type { z } from 'zod/v4';

/** The keys the object schema at `path` accepts (through optional, default, pipes, arrays and unions). */
export function knownKeysAt(schema: z.core.$ZodType, path: Array<string | number>): string[] {
  const objects = objectsAt(schema, path);
  return [...new Set(objects.flatMap((object) => Object.keys(object)))];
}

type Shape = Record<string, z.core.$ZodType>;

function objectsAt(schema: z.core.$ZodType, path: Array<string | number>): Shape[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
    case 'prefault':
      return objectsAt(def.innerType as z.core.$ZodType, path);
    case 'pipe':
      return objectsAt(def.in as z.core.$ZodType, path);
    case 'union':
      return (def.options as z.core.$ZodType[]).flatMap((option) => objectsAt(option, path));
    case 'array':
      return typeof path[0] === 'number' ? objectsAt(def.element as z.core.$ZodType, path.slice(1)) : [];
    case 'object': {
      const shape = def.shape as Shape;
      if (path.length === 0) return [shape];
      const next = typeof path[0] === 'string' ? shape[path[0]] : undefined;
      return next ? objectsAt(next, path.slice(1)) : [];
    }
    default:
      return [];
  }
}

/** The known key a mistyped one most likely meant (case-insensitive edit distance ≤ 2), if any. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = known.map((k) => k.toLowerCase());
  const best = closest(key.toLowerCase(), lower);
  const index = lower.indexOf(best);
  const limit = Math.max(1, Math.min(2, Math.floor(key.length / 3)));
  return distance(key.toLowerCase(), best) <= limit ? known[index] : undefined;
}
