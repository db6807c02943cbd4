import { StrataError } from '@strata-memory/core';

/** The HTTP status for an error a route threw: the caller's mistakes are 4xx, the store's 5xx. */
export function statusOf(error: unknown): number {
  if (!StrataError.isInstance(error)) return 500;
  switch (error.code) {
    case 'invalid_input':
    case 'invalid_scope':
      return 400;
    case 'payload_too_large':
      return 413;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'unsupported':
      return 422;
    case 'store_unavailable':
      return 503;
    default:
      return 500;
  }
}

/** The JSON body of an error response: the StrataError code and message, or a generic one. */
export function errorBody(error: unknown): { error: { code: string; message: string } } {
  if (StrataError.isInstance(error)) return { error: { code: error.code, message: error.message } };
  const message = error instanceof Error ? error.message : String(error);
  return { error: { code: 'internal', message } };
}
