/** `0.5871` → `58.7%`; a missing value → `—`. */
export function percent(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : `${(value * 100).toFixed(1)}%`;
}

/** Whole numbers with thousands separators: `25,912`. */
export function count(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : Math.round(value).toLocaleString('en-US');
}

/** Milliseconds with precision that suits their size: `0.42`, `3.1`, `260`. */
export function millis(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  if (value < 1) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return Math.round(value).toString();
}
