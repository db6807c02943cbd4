import {
  createMemory,
  type Memory,
  type MemoryContext,
  type Principal,
  type Scope,
  StrataError,
} from '@strata-memory/core';
import type { StrataConfig } from '../open-memory.ts';
import { type Action, type CaseFile, DEFAULT_START, type EvalCase } from './case-file-schema.ts';
import { checkExpectations, type Failure } from './check-expectations.ts';
import { type EvalClock, evalClock } from './eval-clock.ts';
import type { FreshStore } from './fresh-store.ts';
import { matchingItems, reviewItemText } from './review-match.ts';

/** What one case did: pass or fail, each failed expectation with its reason, or the step that broke. */
export interface CaseResult {
  name: string;
  passed: boolean;
  /** Expectations checked (each text of `contains`, each fact, … counts as one). */
  checks: number;
  failures: Failure[];
  /** A setup turn, action or the recall that threw: the case fails without checking expectations. */
  error?: { step: string; code: string; message: string };
  /** The recall's rendered block and its tokens (absent when a step failed before it). */
  recall?: { query: string; tokens: number; block: string };
}

/** Errors that mean the store (not the case) failed: they stop the whole run. */
const STORE_FAILURES = new Set(['store_unavailable', 'store_failure', 'schema_version', 'internal']);

const STEP_MS = 60_000;

/**
 * Runs one case on a fresh memory: the user's config on a new, empty store, with a clock the case
 * moves. Turns and actions happen one minute apart unless `at`, `after` or `advance` say otherwise.
 */
export async function runCase(args: {
  evalCase: EvalCase;
  defaults: CaseFile['defaults'];
  config: StrataConfig;
  embedder: StrataConfig['embedder'];
  fresh: () => Promise<FreshStore>;
}): Promise<CaseResult> {
  const { evalCase, defaults = {} } = args;
  const clock = evalClock(evalCase.start ?? defaults.start ?? Date.parse(DEFAULT_START));
  const { embedder: _ignored, clock: _clock, ...config } = args.config;
  const fresh = await args.fresh();
  let memory: Memory;
  try {
    memory = createMemory({
      ...config,
      store: fresh.store,
      clock,
      ...(args.embedder ? { embedder: args.embedder } : {}),
    });
  } catch (error) {
    // An invalid config (e.g. an unknown policy field): nothing to run, nothing left behind.
    await fresh.store.close();
    await fresh.dispose();
    throw error;
  }
  const caseScope = evalCase.scope ?? defaults.scope;
  const scopeOf = (scope: Scope | undefined): Scope => {
    const resolved = scope ?? caseScope;
    // The case file's validation requires a scope wherever none can be inherited.
    if (!resolved) throw new StrataError({ code: 'invalid_scope', message: 'no scope given' });
    return resolved;
  };
  let step = '';
  try {
    for (const [i, turn] of evalCase.setup.entries()) {
      step = `setup[${i}]`;
      if (turn.at !== undefined) clock.set(turn.at);
      else if (i > 0 || turn.after !== undefined) clock.advance(turn.after ?? STEP_MS);
      await memory.observe(
        scopeOf(turn.scope),
        {
          role: turn.role,
          content: turn.content,
          ...(turn.name ? { name: turn.name } : {}),
          ...(turn.access === undefined ? {} : { access: turn.access }),
        },
        turn.principal ? { principal: turn.principal } : {},
      );
    }
    for (const [i, action] of (evalCase.actions ?? []).entries()) {
      step = `actions[${i}]`;
      await runAction(memory, clock, action, scopeOf, defaults.principal);
    }
    step = 'recall';
    clock.advance(STEP_MS);
    const recallScope = scopeOf(evalCase.recall.scope);
    const principal = evalCase.recall.principal ?? defaults.principal;
    const budget = evalCase.recall.budget ?? defaults.budget;
    const context: MemoryContext = await memory.recall(recallScope, {
      query: evalCase.recall.query,
      ...(budget ? { budget: { tokens: budget } } : {}),
      ...(principal ? { principal } : {}),
    });
    step = 'expect';
    const { checks, failures } = await checkExpectations({
      memory,
      context,
      expect: evalCase.expect,
      scope: recallScope,
      scopeOf,
      principal,
    });
    return {
      name: evalCase.name,
      passed: failures.length === 0,
      checks,
      failures,
      recall: { query: evalCase.recall.query, tokens: context.tokens, block: context.render() },
    };
  } catch (error) {
    if (StrataError.isInstance(error) && STORE_FAILURES.has(error.code)) throw error;
    return {
      name: evalCase.name,
      passed: false,
      checks: 0,
      failures: [],
      error: {
        step: describeStep(evalCase, step),
        code: StrataError.isInstance(error) ? error.code : 'error',
        message: error instanceof Error ? error.message : String(error),
      },
    };
  } finally {
    await memory.close();
    await fresh.dispose();
  }
}

async function runAction(
  memory: Memory,
  clock: EvalClock,
  action: Action,
  scopeOf: (scope: Scope | undefined) => Scope,
  defaultPrincipal: Principal | undefined,
): Promise<void> {
  if (action.advance !== undefined) {
    clock.advance(action.advance);
    return;
  }
  clock.advance(STEP_MS);
  if (action.correct) {
    const { scope, principal, entityType, ...fact } = action.correct;
    const by = principal ?? defaultPrincipal;
    await memory.facts.correct(scopeOf(scope), {
      ...fact,
      ...(entityType ? { entityType } : {}),
      ...(by ? { principal: by } : {}),
    });
  } else if (action.remember) {
    const { scope, principal, entityType, ...fact } = action.remember;
    const by = principal ?? defaultPrincipal;
    await memory.facts.remember(scopeOf(scope), {
      ...fact,
      ...(entityType ? { entityType } : {}),
      ...(by ? { principal: by } : {}),
    });
  } else if (action.approve || action.reject) {
    const decision = (action.approve ?? action.reject) as NonNullable<Action['approve']>;
    const scope = scopeOf(decision.scope);
    const principal = decision.principal ?? defaultPrincipal;
    const pending = await memory.review.list(scope, {
      status: ['pending'],
      ...(principal ? { principal } : {}),
    });
    const matches = matchingItems(pending, decision.text);
    const [item] = matches;
    if (!item || matches.length > 1) {
      const listed = pending.map((p) => `\n    - ${reviewItemText(p)}`).join('') || ' (none)';
      throw new StrataError({
        code: 'not_found',
        message:
          matches.length === 0
            ? `no pending review item contains "${decision.text}"; pending:${listed}`
            : `${matches.length} pending review items contain "${decision.text}"; make the text more specific. Pending:${listed}`,
      });
    }
    const options = principal ? { principal } : {};
    if (action.approve) await memory.review.approve(scope, item.id, options);
    else await memory.review.reject(scope, item.id, options);
  } else if (action.consolidate) {
    await memory.consolidate({ scope: scopeOf(action.consolidate.scope) });
  } else if (action.forget) {
    await memory.forget(action.forget);
  }
}

/** `actions[1] (approve "90 days")`, `setup[0] ("Supplier X's lead time…")`, `recall`. */
function describeStep(evalCase: EvalCase, step: string): string {
  const index = Number(/\[(\d+)\]/.exec(step)?.[1]);
  if (step.startsWith('setup')) {
    const content = evalCase.setup[index]?.content ?? '';
    return `${step} ("${content.length > 50 ? `${content.slice(0, 50)}…` : content}")`;
  }
  if (step.startsWith('actions')) {
    const action = evalCase.actions?.[index];
    const name = action
      ? Object.keys(action).find((k) => action[k as keyof Action] !== undefined)
      : undefined;
    return name ? `${step} (${name})` : step;
  }
  return step;
}
