import { createHash, randomBytes } from 'node:crypto';

/**
 * Canonical forms shared by every driver, so exact-match lookups (node names, duplicate texts)
 * behave the same on every store.
 */

/** Lower-case, NFKC, trimmed, inner whitespace collapsed, surrounding punctuation and quotes removed. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\s"'`“”‘’.,;:!?()[\]{}]+|[\s"'`“”‘’.,;:!?()[\]{}]+$/g, '');
}

/** The text two episodes must share to count as the same: case, whitespace and punctuation folded. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Hex SHA-256 of the normalised text. */
export function contentHash(text: string): string {
  return createHash('sha256').update(normalizeText(text)).digest('hex');
}

let lastTime = 0;
let counter = 0;

/**
 * A time-ordered unique id with a readable prefix: `ep_0m3k9x2a5f_8c1d2e3f4a5b`.
 * Ids made in the same process sort by creation order.
 */
export function createId(prefix: string): string {
  const now = Date.now();
  if (now === lastTime) counter += 1;
  else {
    lastTime = now;
    counter = 0;
  }
  const time = now.toString(36).padStart(9, '0') + counter.toString(36).padStart(3, '0');
  return `${prefix}_${time}_${randomBytes(6).toString('hex')}`;
}
