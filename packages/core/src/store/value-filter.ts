import { LIMITS } from './limits.ts';
import type { JsonValue } from './records.ts';

export type ValueOperator = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$nin';

/**
 * One condition of `facts.find`'s `where`, as drivers receive it: the value's top-level `field`
 * compared with `op`. `$eq`/`$ne` compare JSON deeply (object key order aside); `$gt`, `$gte`,
 * `$lt`, `$lte` hold only for a field that is a number; `$in`/`$nin` take a list. A missing field,
 * or a value that is not an object, meets only `$ne` and `$nin`.
 */
export interface ValueCondition {
  field: string;
  op: ValueOperator;
  value: JsonValue;
}

/**
 * Conditions on the top-level fields of a JSON object value (a fact's value), as `facts.find`'s
 * `where` takes them: `{ field: value }` (deep JSON equality) or `{ field: { $op: operand, … } }`
 * with `$eq`, `$ne` (JSON equality), `$gt`, `$gte`, `$lt`, `$lte` (numbers only: they hold when the
 * field is a number), `$in`, `$nin` (a list of values). Every condition must hold. A value that is
 * not an object has no fields: only `$ne` and `$nin` hold for it, as they do for a missing field.
 */

export const VALUE_OPERATORS: readonly ValueOperator[] = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
];
const COMPARISONS = new Set<ValueOperator>(['$gt', '$gte', '$lt', '$lte']);
const LISTS = new Set<ValueOperator>(['$in', '$nin']);
const OPERATOR_SET = new Set<string>(VALUE_OPERATORS);

function isPlainObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ field: condition }` as a list of `{ field, op, value }`, or the first problem found. */
export function valueConditions(
  filter: Record<string, JsonValue>,
): { conditions: ValueCondition[] } | { issue: { path: string[]; message: string } } {
  const conditions: ValueCondition[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (!isPlainObject(condition) || !Object.keys(condition).some((k) => k.startsWith('$'))) {
      conditions.push({ field, op: '$eq', value: condition });
      continue;
    }
    for (const [op, operand] of Object.entries(condition)) {
      if (!OPERATOR_SET.has(op)) {
        return {
          issue: {
            path: [field, op],
            message: `unknown operator ${op}; use ${VALUE_OPERATORS.join(', ')}`,
          },
        };
      }
      const operator = op as ValueOperator;
      if (COMPARISONS.has(operator) && (typeof operand !== 'number' || !Number.isFinite(operand))) {
        return { issue: { path: [field, op], message: `${op} compares numbers: give a finite number` } };
      }
      if (LISTS.has(operator) && (!Array.isArray(operand) || operand.length > LIMITS.maxBatch)) {
        return {
          issue: { path: [field, op], message: `${op} takes a list of at most ${LIMITS.maxBatch} values` },
        };
      }
      conditions.push({ field, op: operator, value: operand });
    }
  }
  return { conditions };
}

/** Deep JSON equality (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

function holds(condition: ValueCondition, actual: JsonValue | undefined): boolean {
  const { op, value } = condition;
  switch (op) {
    case '$eq':
      return jsonEqual(actual, value);
    case '$ne':
      return !jsonEqual(actual, value);
    case '$in':
      return (value as JsonValue[]).some((v) => jsonEqual(actual, v));
    case '$nin':
      return !(value as JsonValue[]).some((v) => jsonEqual(actual, v));
    default: {
      if (typeof actual !== 'number') return false;
      const operand = value as number;
      if (op === '$gt') return actual > operand;
      if (op === '$gte') return actual >= operand;
      if (op === '$lt') return actual < operand;
      return actual <= operand;
    }
  }
}

/** True when `value` meets every condition (the in-memory driver's reading of `where`). */
export function matchesValue(value: JsonValue, conditions: readonly ValueCondition[]): boolean {
  return conditions.every((condition) =>
    holds(
      condition,
      isPlainObject(value) && Object.hasOwn(value, condition.field) ? value[condition.field] : undefined,
    ),
  );
}
