/**
 * A deep copy of a JSON value with every object's keys in code-unit order, so the same data
 * serialises to the same text whichever store it came from (PostgreSQL's jsonb, for one, keeps
 * keys in its own order).
 */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== undefined) out[key] = sortKeys(inner);
  }
  return out as T;
}
