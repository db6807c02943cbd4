/**
 * A store item's address, `(namespace, key)`, as one fact entity name the engine keeps exactly.
 *
 * The engine folds entity names (lower case, trimmed, whitespace collapsed, surrounding
 * punctuation dropped), while LangGraph namespaces and keys are case-sensitive. Each label is
 * therefore written with `[a-z0-9_-]` as is and every other character percent-encoded as its UTF-8
 * bytes in lower-case hex, which folding leaves unchanged; labels are joined with `/`. Typical
 * labels (`memories`, `user_123`, uuids) read as themselves.
 */

const PLAIN = /^[a-z0-9_-]$/;

export function encodeLabel(label: string): string {
  let out = '';
  for (const char of label) {
    if (PLAIN.test(char)) out += char;
    else for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

export function decodeLabel(encoded: string): string {
  return decodeURIComponent(encoded);
}

/** `['users', 'Ada'], 'prefs'` → `users/%41da/prefs`. */
export function itemPath(namespace: readonly string[], key: string): string {
  return [...namespace, key].map(encodeLabel).join('/');
}

/** The labels of a `/`-joined path, or undefined when `itemPath` did not write them. */
function parseLabels(path: string): string[] | undefined {
  const parts = path.split('/');
  try {
    const labels = parts.map(decodeLabel);
    if (labels.some((label, i) => label === '' || encodeLabel(label) !== parts[i])) return undefined;
    return labels;
  } catch {
    return undefined;
  }
}

/** The namespace and key of a path, or undefined when it is not one `itemPath` made. */
export function parsePath(path: string): { namespace: string[]; key: string } | undefined {
  const labels = parseLabels(path);
  if (!labels || labels.length < 2) return undefined;
  return { namespace: labels.slice(0, -1), key: labels.at(-1)! };
}

/** The namespace of an item path without its key (`users/%41da` → `['users', 'Ada']`), or undefined. */
export function parseNamespacePath(path: string): string[] | undefined {
  return parseLabels(path);
}
