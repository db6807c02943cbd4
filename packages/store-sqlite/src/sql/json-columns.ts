/** JSON values are stored as text; these are the only two ways they cross the boundary. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** The column value for an optional field: SQL NULL when absent. */
export function optional<T>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}

/** Copies `value` into `target[key]` unless it is SQL NULL, so records carry only set fields. */
export function setIfPresent<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: T[K] | null,
): void {
  if (value !== null && value !== undefined) target[key] = value;
}
