/** A shallow copy of `value` without its `undefined` fields, so stored records hold only set fields. */
export function compact<T extends object>(value: T): T {
  const out = {} as T;
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined) (out as Record<string, unknown>)[key] = field;
  }
  return out;
}

/**
 * A deep copy of plain data (what records are made of: objects, arrays, strings, numbers,
 * booleans, null). Several times faster than `structuredClone` on records with embeddings.
 */
export function copyRecord<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    // Arrays of numbers (embeddings) are the bulk of what is copied: copy them flat.
    if (value.every((item) => typeof item === 'number')) return value.slice() as T;
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyRecord(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (Object.hasOwn(value, key)) out[key] = copyRecord((value as Record<string, unknown>)[key]);
  }
  return out as T;
}
