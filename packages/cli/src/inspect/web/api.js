/** The inspector's JSON API, with the token from the page's URL on every request. */

const token = new URLSearchParams(location.search).get('token') ?? '';

/** An error the API answered with: its code (a StrataError code, e.g. invalid_input) and message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** GET with `query`, or POST with `body` (JSON). Resolves to the parsed answer; rejects with ApiError. */
export async function api(path, { query, body } = {}) {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'x-strata-token': token,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = answer.error ?? {};
    throw new ApiError(response.status, error.code ?? 'error', error.message ?? response.statusText);
  }
  return answer;
}

/** A scope as the command line writes it: `org=acme,user=maria`. */
export function scopeText(scope) {
  return [
    ['org', scope.orgId],
    ['user', scope.userId],
    ['agent', scope.agentId],
    ['thread', scope.threadId],
  ]
    .filter(([, value]) => value !== undefined)
    .map(([level, value]) => `${level}=${value}`)
    .join(',');
}

/** A time (epoch ms) as `2026-07-03 14:05`. */
export function formatTime(ms) {
  if (ms === undefined || ms === null) return '';
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** A fact or JSON value as text: strings as they are, anything else as JSON. */
export function formatValue(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
