import { InvalidArgumentError } from 'commander';

/** Parses `1,5,10,20` into distinct ascending integers within [min, max]. */
export function integerList(args: { min: number; max: number }): (value: string) => number[] {
  return (value) => {
    const parts = value.split(',').map((part) => part.trim());
    const numbers = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
    const bad = parts.filter((_, i) => {
      const n = numbers[i]!;
      return !Number.isSafeInteger(n) || n < args.min || n > args.max;
    });
    if (parts.length === 0 || bad.length > 0) {
      throw new InvalidArgumentError(
        `expected comma-separated integers in ${args.min}..${args.max}, got ${bad.map((b) => `"${b}"`).join(', ') || '""'}`,
      );
    }
    return [...new Set(numbers)].sort((a, b) => a - b);
  };
}

/** Parses `a,b` into distinct names, each one of `allowed`, in the order of `allowed`. */
export function nameList<T extends string>(allowed: readonly T[]): (value: string) => T[] {
  return (value) => {
    const parts = value.split(',').map((part) => part.trim());
    const unknown = parts.filter((part) => !allowed.includes(part as T));
    if (unknown.length > 0) {
      throw new InvalidArgumentError(`unknown ${unknown.join(', ')}; choose from ${allowed.join(', ')}`);
    }
    return allowed.filter((name) => parts.includes(name));
  };
}

/** Parses one integer within [min, max]. */
export function integer(args: { min: number; max: number }): (value: string) => number {
  const list = integerList(args);
  return (value) => {
    if (value.includes(',')) throw new InvalidArgumentError('expected one integer');
    return list(value)[0]!;
  };
}
