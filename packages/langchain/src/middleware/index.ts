export type { MemoryErrorEvent, MemoryErrorReporter, RecallErrorPolicy } from '@strata-memory/core';
export {
  STRATA_MIDDLEWARE_NAME,
  type StrataMemoryMiddlewareOptions,
  scopeContextSchema,
  strataMemoryMiddleware,
} from './strata-memory-middleware.ts';
