import ms from 'ms';

/**
 * Reads a positive duration with a unit (`90m`, `2h`, `3d`, `1w`, `2 days`) as milliseconds, or
 * undefined when it is not one. A bare number is refused: its unit would be a guess.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?\s*[a-z]+$/i.test(trimmed)) return undefined;
  const value = ms(trimmed as ms.StringValue);
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
