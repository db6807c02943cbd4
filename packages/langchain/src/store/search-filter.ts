import { invalidInput } from '@strata-memory/core';

/**
 * LangGraph's search filters, as `InMemoryStore` applies them: each entry names a top-level field
 * of the document and either a value (equality) or an object of operators — `$eq`, `$ne`, `$gt`,
 * `$gte`, `$lt`, `$lte` (numeric comparison), `$in`, `$nin`. Every entry must hold. Equality is
 * deep for objects and arrays (LangGraph's database stores compare JSON the same way).
 */

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);

export type SearchFilter = Record<string, unknown>;

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).every((key) => OPERATORS.has(key))
  );
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

function holds(operator: string, actual: unknown, expected: unknown): boolean {
  switch (operator) {
    case '$eq':
      return jsonEqual(actual, expected);
    case '$ne':
      return !jsonEqual(actual, expected);
    case '$gt':
      return Number(actual) > Number(expected);
    case '$gte':
      return Number(actual) >= Number(expected);
    case '$lt':
      return Number(actual) < Number(expected);
    case '$lte':
      return Number(actual) <= Number(expected);
    case '$in':
      return Array.isArray(expected) && expected.some((e) => jsonEqual(actual, e));
    case '$nin':
      return !Array.isArray(expected) || !expected.some((e) => jsonEqual(actual, e));
    default:
      return false;
  }
}

/** Validates a filter: a plain object whose operator objects use known operators only. */
export function checkFilter(filter: unknown, where: string): SearchFilter | undefined {
  if (filter === undefined || filter === null) return undefined;
  if (typeof filter !== 'object' || Array.isArray(filter))
    throw invalidInput(`${where}: filter must be an object.`);
  for (const [field, condition] of Object.entries(filter)) {
    if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) continue;
    const keys = Object.keys(condition);
    const unknown = keys.filter((k) => k.startsWith('$') && !OPERATORS.has(k));
    if (unknown.length > 0) {
      throw invalidInput(`${where}: filter.${field} uses unknown operator ${unknown.join(', ')}.`, {
        field,
        operators: unknown,
      });
    }
  }
  return filter as SearchFilter;
}

export function matchesFilter(value: Record<string, unknown>, filter: SearchFilter | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([field, condition]) => {
    const actual = value[field];
    if (isOperatorObject(condition)) {
      return Object.entries(condition).every(([operator, expected]) => holds(operator, actual, expected));
    }
    return jsonEqual(actual, condition);
  });
}
