/**
 * Collects the values of one statement and hands out their `$n` placeholders, so SQL built from
 * several fragments never miscounts parameters and no value is ever spliced into the text.
 */
export class Params {
  readonly values: unknown[] = [];

  /** The placeholder of a new parameter holding `value`. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** A JSON value as a `jsonb` parameter (node-postgres would send a JS array as a SQL array). */
  json(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::jsonb`;
  }

  /** A list of strings as a `text[]` parameter. */
  texts(values: readonly string[]): string {
    return `${this.add(values)}::text[]`;
  }
}
