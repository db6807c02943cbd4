import { wrapLanguageModel } from 'ai';
import { type StrataMiddlewareOptions, strataMiddleware } from './strata-middleware.ts';

type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model'];

/**
 * `model` with Strata memory: `wrapLanguageModel({ model, middleware: strataMiddleware(options) })`.
 * Bind a scope here, or pass one per call through `providerOptions.strata`.
 */
export function withMemory(
  model: WrappableModel,
  options: StrataMiddlewareOptions,
): ReturnType<typeof wrapLanguageModel> {
  return wrapLanguageModel({ model, middleware: strataMiddleware(options) });
}
