import { z } from 'zod/v4';
import { consolidate } from '../consolidate/consolidate.ts';
import { checkedClock } from '../engine/checked-clock.ts';
import type { Engine } from '../engine/engine.ts';
import { auditListOptionsSchema } from '../engine/input-schemas.ts';
import { resolvePolicy } from '../engine/policy.ts';
import type { AuditApi, Memory, MemoryOptions } from '../engine/types.ts';
import { rulesExtractor } from '../extract/rules-extractor.ts';
import { createFactsApi } from '../facts/facts-api.ts';
import { createGraphApi } from '../graph/graph-api.ts';
import type { Clock, Embedder, Extractor, Summarizer, Tokenizer } from '../ports/ports.ts';
import { createRecall } from '../recall/recall.ts';
import { parseScope } from '../scope/scope.ts';
import { exportSnapshot } from '../snapshot/export-snapshot.ts';
import { importSnapshot } from '../snapshot/import-snapshot.ts';
import { createLedgerApi } from '../state/ledger-api.ts';
import { createStateApi } from '../state/state-api.ts';
import { STORE_SPECIFICATION_VERSION, type Store } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import { defaultTokenizer } from '../tokenizer/tokenizer.ts';
import { extractiveSummarizer } from '../working/extractive-summarizer.ts';
import { createFactSearch } from './fact-search.ts';
import { forget, forgetItem } from './forget.ts';
import { observe } from './observe.ts';
import { createReviewApi } from './review-api.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const hasMethods = (v: unknown, methods: string[]) =>
  isObject(v) && methods.every((m) => typeof v[m] === 'function');

const storeSchema = z.custom<Store>(
  (v) =>
    hasMethods(v, ['transaction', 'forget', 'close']) &&
    (v as Store).specificationVersion === STORE_SPECIFICATION_VERSION &&
    isObject((v as Store).episodes) &&
    isObject((v as Store).capabilities),
  { message: `must be a Store (${STORE_SPECIFICATION_VERSION}) built with defineStore, e.g. memoryStore()` },
);

const embedderSchema = z.custom<Embedder>(
  (v) =>
    hasMethods(v, ['embed']) &&
    typeof (v as Embedder).id === 'string' &&
    Number.isInteger((v as Embedder).dimensions) &&
    (v as Embedder).dimensions > 0 &&
    Number.isInteger((v as Embedder).maxBatchSize) &&
    (v as Embedder).maxBatchSize >= 1,
  { message: 'must be an Embedder: { id, dimensions (integer > 0), maxBatchSize (integer >= 1), embed() }' },
);

const extractorSchema = z.custom<Extractor>(
  (v) => hasMethods(v, ['extract']) && typeof (v as Extractor).id === 'string',
  { message: 'must be an Extractor: { id, kind, extract() }' },
);
const summarizerSchema = z.custom<Summarizer>(
  (v) => hasMethods(v, ['summarize']) && typeof (v as Summarizer).id === 'string',
  { message: 'must be a Summarizer: { id, summarize() }' },
);
const tokenizerSchema = z.custom<Tokenizer>(
  (v) => hasMethods(v, ['count', 'truncate']) && typeof (v as Tokenizer).id === 'string',
  { message: 'must be a Tokenizer: { id, count(), truncate() }' },
);
const clockSchema = z.custom<Clock>((v) => hasMethods(v, ['now']), { message: 'must be a Clock: { now() }' });

const optionsSchema = z
  .object({
    store: storeSchema,
    embedder: embedderSchema.optional(),
    extractor: extractorSchema.optional(),
    summarizer: summarizerSchema.optional(),
    tokenizer: tokenizerSchema.optional(),
    clock: clockSchema.optional(),
    policy: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const systemClock: Clock = { now: () => Date.now() };

/**
 * Creates the memory engine over a store. Everything but the store is optional: without an
 * embedder recall is keyword-only, the extractor defaults to the deterministic rules extractor,
 * the summarizer to the extractive one, the tokenizer to o200k_base, the clock to the system's.
 * Options are validated: a missing or malformed port fails with `invalid_input` here, not later.
 */
export function createMemory(options: MemoryOptions): Memory {
  const parsed = parseArgs(optionsSchema, options, 'createMemory');
  const policy = resolvePolicy((parsed.policy ?? {}) as MemoryOptions['policy']);
  const engine: Engine = {
    store: parsed.store,
    ...(parsed.embedder ? { embedder: parsed.embedder } : {}),
    extractor: parsed.extractor ?? rulesExtractor(),
    summarizer: parsed.summarizer ?? extractiveSummarizer(),
    tokenizer: parsed.tokenizer ?? defaultTokenizer(),
    clock: checkedClock(parsed.clock ?? systemClock),
    policy,
  };
  const recall = createRecall({
    store: engine.store,
    ...(engine.embedder ? { embedder: engine.embedder } : {}),
    tokenizer: engine.tokenizer,
    summarizer: engine.summarizer,
    clock: engine.clock,
    policy,
  });
  const audit: AuditApi = {
    async list(scopeInput, options) {
      const scope = parseScope(scopeInput);
      const parsedOptions = parseArgs(auditListOptionsSchema, options, 'audit.list: options') ?? {};
      return engine.store.audit.list({
        scope,
        ...(parsedOptions.actions ? { actions: parsedOptions.actions } : {}),
        ...(parsedOptions.since !== undefined ? { since: parsedOptions.since } : {}),
        ...(parsedOptions.limit !== undefined ? { limit: parsedOptions.limit } : {}),
        ...(parsedOptions.cursor !== undefined ? { cursor: parsedOptions.cursor } : {}),
      });
    },
  };

  return {
    store: engine.store,
    policy,
    tokenizer: engine.tokenizer,
    clock: parsed.clock ?? systemClock,
    observe: (scope, input, observeOptions) => observe(engine, scope, input, observeOptions),
    recall: async (scope, recallOptions) => recall(parseScope(scope), recallOptions),
    facts: { ...createFactsApi(engine), search: createFactSearch(engine) },
    graph: createGraphApi(engine),
    state: createStateApi(engine),
    ledger: createLedgerApi(engine),
    review: createReviewApi(engine),
    audit,
    forgetItem: (scope, id, forgetOptions) => forgetItem(engine, scope, id, forgetOptions),
    forget: (scope, forgetOptions) => forget(engine, scope, forgetOptions),
    consolidate: (consolidateOptions) => consolidate(engine, consolidateOptions),
    export: (exportOptions) =>
      exportSnapshot(engine.store, {
        ...exportOptions,
        ...(exportOptions?.scope ? { scope: parseScope(exportOptions.scope) } : {}),
      }),
    import: (snapshot, importOptions) => importSnapshot(engine.store, snapshot, importOptions),
    close: () => engine.store.close(),
  };
}
