import type { DatabaseSync } from 'node:sqlite';
import type { JsonValue, ValueCondition } from '@strata-memory/core/store';
import type { Clause, SqlValue } from './scope-sql.ts';

/**
 * `facts.find`'s `where` as SQL over a JSON text column: each condition reads the value's top-level
 * members with `json_each` (so any field name works, with no JSON path quoting) and compares by JSON
 * type, so `true` never equals `1` and `"1"` never equals `1`. Objects and arrays compare with
 * `strata_json_equal` (deep, key order aside), registered on each connection by `registerJsonEqual`.
 */

export const JSON_EQUAL_FUNCTION = 'strata_json_equal';

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (k) =>
      Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** Registers `strata_json_equal(a, b)`: 1 when two JSON texts hold equal values. */
export function registerJsonEqual(db: DatabaseSync): void {
  db.function(JSON_EQUAL_FUNCTION, { deterministic: true }, (a, b) => {
    if (typeof a !== 'string' || typeof b !== 'string') return 0;
    try {
      return jsonEqual(JSON.parse(a), JSON.parse(b)) ? 1 : 0;
    } catch {
      return 0;
    }
  });
}

/** The member `j` equals `value` (its JSON type and its value). */
function sameMember(value: JsonValue): Clause {
  if (value === null) return { sql: "j.type = 'null'", params: [] };
  if (typeof value === 'boolean') return { sql: `j.type = '${value ? 'true' : 'false'}'`, params: [] };
  if (typeof value === 'number')
    return { sql: "j.type IN ('integer', 'real') AND j.value = ?", params: [value] };
  if (typeof value === 'string') return { sql: "j.type = 'text' AND j.value = ?", params: [value] };
  return {
    sql: `j.type = '${Array.isArray(value) ? 'array' : 'object'}' AND ${JSON_EQUAL_FUNCTION}(j.value, ?)`,
    params: [JSON.stringify(value)],
  };
}

const COMPARE = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

function member(column: string, field: string, test: Clause): Clause {
  return {
    sql: `EXISTS (SELECT 1 FROM json_each(${column}) AS j WHERE j.key = ? AND (${test.sql}))`,
    params: [field, ...test.params],
  };
}

function anyOf(values: readonly JsonValue[]): Clause {
  const parts = values.map(sameMember);
  return { sql: parts.map((p) => `(${p.sql})`).join(' OR '), params: parts.flatMap((p) => p.params) };
}

function conditionSql(column: string, condition: ValueCondition): Clause {
  const { field, op, value } = condition;
  switch (op) {
    case '$eq':
      return member(column, field, sameMember(value));
    case '$ne': {
      const eq = member(column, field, sameMember(value));
      return { sql: `NOT ${eq.sql}`, params: eq.params };
    }
    case '$in': {
      const values = value as JsonValue[];
      return values.length === 0 ? { sql: '0', params: [] } : member(column, field, anyOf(values));
    }
    case '$nin': {
      const values = value as JsonValue[];
      if (values.length === 0) return { sql: '1', params: [] };
      const inList = member(column, field, anyOf(values));
      return { sql: `NOT ${inList.sql}`, params: inList.params };
    }
    default:
      return member(column, field, {
        sql: `j.type IN ('integer', 'real') AND j.value ${COMPARE[op]} ?`,
        params: [value as SqlValue],
      });
  }
}

/** Every condition on the JSON in `column`, ANDed. */
export function valueFilterClause(column: string, conditions: readonly ValueCondition[]): Clause {
  const parts = conditions.map((c) => conditionSql(column, c));
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}
