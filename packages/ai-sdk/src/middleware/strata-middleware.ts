import type {
  Memory,
  MemoryErrorReporter,
  ObserveInput,
  Principal,
  RecallErrorPolicy,
  Scope,
} from '@strata-memory/core';
import {
  integrationOptionFields,
  memoryFailurePolicy,
  parseArgs,
  parseBoundScope,
  type RecallSettings,
  recallOptionsFor,
  resolveRequestScope,
} from '@strata-memory/core/integration';
import type { LanguageModelMiddleware } from 'ai';
import { z } from 'zod/v4';
import { STRATA_OPTIONS_KEY } from '../scope/request-scope.ts';
import type { CallOptions, StreamPart } from './model-call.ts';
import { insertSystemContext, type PromptTurn, readPromptTurn } from './prompt-turn.ts';
import { assistantFromContent, StreamedAnswer } from './step-output.ts';

export interface StrataMiddlewareOptions {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /**
   * Scope bound to every call. A call may add levels through `providerOptions.strata`
   * (e.g. bind `{ orgId }`, pass `{ userId, threadId }` per request) but never change bound ones.
   * Without a bound scope every call must pass `providerOptions.strata`.
   */
  scope?: Scope;
  /**
   * Passed to `memory.recall`: `budget` (default the engine's `policy.defaultBudgetTokens`),
   * `layers` (default all; leave out `working` when the caller already sends the full history),
   * `maxEpisodes`.
   */
  recall?: RecallSettings;
  /** Who is asking: recall sees only items at or below its access level; writes record it as provenance. */
  principal?: Principal;
  /** When recall fails: `continue` (default) answers without memory and reports; `throw` fails the call. */
  onError?: RecallErrorPolicy;
  /** Receives recall failures (under `continue`) and observation failures. Default: `console.warn`. */
  reportError?: MemoryErrorReporter;
}

const optionsSchema = z.object({ ...integrationOptionFields, scope: z.unknown().optional() }).strict();

/** What `transformParams` learned about a call, handed to `wrapGenerate` / `wrapStream`. */
interface CallTurn {
  scope: Scope;
  turn: PromptTurn;
}

const WHERE = 'strataMiddleware';
const REQUEST_ARGUMENT = `providerOptions.${STRATA_OPTIONS_KEY}`;

/** `providerOptions` without Strata's key, so the scope never reaches the provider. */
function withoutStrataOptions(
  providerOptions: CallOptions['providerOptions'],
): CallOptions['providerOptions'] {
  if (!providerOptions || !(STRATA_OPTIONS_KEY in providerOptions)) return providerOptions;
  const { [STRATA_OPTIONS_KEY]: _scope, ...rest } = providerOptions;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * Memory for `wrapLanguageModel`. Before each model call it recalls with the latest user message as
 * the query and inserts `context.render()` as a system message after the caller's own system
 * messages. After the call it observes the turn: the user message once (on the first step of a
 * tool loop) and each step's answer (text and tool calls) once, for `generateText` and
 * `streamText` alike (a stream is observed when it has been read to its end).
 */
export function strataMiddleware(options: StrataMiddlewareOptions): LanguageModelMiddleware {
  const parsed = parseArgs(optionsSchema, options, WHERE);
  const memory = parsed.memory;
  const bound = parseBoundScope(parsed.scope, WHERE);
  const failures = memoryFailurePolicy(
    {
      ...(parsed.onError ? { onError: parsed.onError } : {}),
      ...(parsed.reportError ? { reportError: parsed.reportError } : {}),
    },
    WHERE,
  );
  const principal = parsed.principal;
  const turns = new WeakMap<CallOptions, CallTurn>();

  const scopeOf = (params: CallOptions): Scope =>
    resolveRequestScope({
      bound,
      request: params.providerOptions?.[STRATA_OPTIONS_KEY],
      where: WHERE,
      requestArgument: REQUEST_ARGUMENT,
    });

  /** Observes the user message (first step only) and this step's answer; failures are reported, never thrown. */
  async function observeStep(call: CallTurn, answer: ObserveInput | undefined): Promise<void> {
    const inputs: ObserveInput[] = [];
    if (call.turn.firstStep && call.turn.query !== undefined) {
      inputs.push({ role: 'user', content: call.turn.query });
    }
    if (answer) inputs.push(answer);
    if (inputs.length === 0) return;
    await failures.observe(call.scope, () =>
      memory.observe(call.scope, inputs, principal ? { principal } : {}),
    );
  }

  function callTurn(params: CallOptions): CallTurn {
    return turns.get(params) ?? { scope: scopeOf(params), turn: readPromptTurn(params.prompt) };
  }

  return {
    specificationVersion: 'v4',

    async transformParams({ params }) {
      const scope = scopeOf(params);
      const turn = readPromptTurn(params.prompt);
      let prompt = params.prompt;
      const context = await failures.recall(scope, () =>
        memory.recall(scope, recallOptionsFor(parsed.recall, { query: turn.query, principal })),
      );
      const rendered = context?.render() ?? '';
      if (rendered.trim().length > 0) prompt = insertSystemContext(prompt, rendered);
      const next: CallOptions = {
        ...params,
        prompt,
        providerOptions: withoutStrataOptions(params.providerOptions),
      };
      if (next.providerOptions === undefined) delete next.providerOptions;
      turns.set(next, { scope, turn });
      return next;
    },

    async wrapGenerate({ doGenerate, params }) {
      const call = callTurn(params);
      const result = await doGenerate();
      await observeStep(call, assistantFromContent(result.content));
      return result;
    },

    async wrapStream({ doStream, params }) {
      const call = callTurn(params);
      const { stream, ...rest } = await doStream();
      const answer = new StreamedAnswer();
      const observed = stream.pipeThrough(
        new TransformStream<StreamPart, StreamPart>({
          transform(part, controller) {
            answer.add(part);
            controller.enqueue(part);
          },
          async flush() {
            await observeStep(call, answer.message());
          },
        }),
      );
      return { ...rest, stream: observed };
    },
  };
}
