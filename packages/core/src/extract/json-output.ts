/**
 * Reads the JSON object out of a model's reply, tolerating what models wrap around it: code
 * fences, a sentence of prose before or after, a byte-order mark. Returns undefined when no
 * parseable object is found; the caller validates the shape with zod.
 */
export function parseModelJson(raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, '').trim();
  const candidates: string[] = [];
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  if (fenced) candidates.push(fenced[1]!.trim());
  candidates.push(text);
  const balanced = firstBalancedObject(text);
  if (balanced) candidates.push(balanced);
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/** The first `{ … }` span whose braces balance (strings and escapes respected). */
function firstBalancedObject(text: string): string | undefined {
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{') depth += 1;
      else if (ch === '}') {
        depth -= 1;
        if (depth === 0) {
          const span = text.slice(start, i + 1);
          try {
            JSON.parse(span);
            return span;
          } catch {
            break;
          }
        }
      }
    }
  }
  return undefined;
}
