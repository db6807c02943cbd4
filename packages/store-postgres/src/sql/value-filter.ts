import type { ValueCondition } from '@strata-memory/core/store';
import type { Params } from './params.ts';

/**
 * `facts.find`'s `where` as SQL over a `jsonb` column. jsonb equality is deep and ignores object key
 * order, and compares by JSON type (`true` is not `1`, `"1"` is not `1`); a missing field or a value
 * that is not an object reads as NULL, which meets only `$ne` and `$nin`.
 */

const COMPARE = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

function conditionSql(column: string, condition: ValueCondition, p: Params): string {
  const field = `${column} -> ${p.add(condition.field)}::text`;
  switch (condition.op) {
    case '$eq':
      return `coalesce(${field} = ${p.json(condition.value)}, false)`;
    case '$ne':
      return `NOT coalesce(${field} = ${p.json(condition.value)}, false)`;
    case '$in':
      return `coalesce(${field} IN (SELECT jsonb_array_elements(${p.json(condition.value)})), false)`;
    case '$nin':
      return `NOT coalesce(${field} IN (SELECT jsonb_array_elements(${p.json(condition.value)})), false)`;
    default:
      // CASE, so the cast only ever sees a number.
      return `(CASE WHEN jsonb_typeof(${field}) = 'number'
        THEN (${column} ->> ${p.add(condition.field)}::text)::numeric ${COMPARE[condition.op]} ${p.add(condition.value)}::numeric
        ELSE false END)`;
  }
}

/** Every condition on the jsonb in `column`, ANDed. */
export function valueFilterSql(column: string, conditions: readonly ValueCondition[], p: Params): string[] {
  return conditions.map((condition) => conditionSql(column, condition, p));
}
