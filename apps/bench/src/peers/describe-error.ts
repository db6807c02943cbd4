/** An error and its causes on one line: `Error: message (cause: TypeError: message)`. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(`${current.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${current.message}`);
      current = current.cause;
    } else {
      parts.push(String(current));
      current = undefined;
    }
  }
  return parts
    .join(' (cause: ')
    .concat(')'.repeat(Math.max(0, parts.length - 1)))
    .replace(/\s+/g, ' ');
}
