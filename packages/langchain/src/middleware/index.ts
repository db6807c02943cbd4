export type { MemoryErrorEvent, MemoryErrorReporter, RecallErrorPolicy } from './memory-errors.ts';
export {
  STRATA_MIDDLEWARE_NAME,
  type StrataMemoryMiddlewareOptions,
  scopeContextSchema,
  strataMemoryMiddleware,
} from './strata-memory-middleware.ts';
