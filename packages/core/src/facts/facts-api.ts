import { AuditTrail } from '../engine/audit-log.ts';
import { documentEmbedder } from '../engine/document-embedder.ts';
import {
  actorOf,
  type Engine,
  longTermScopeOf,
  readLevel,
  retryOnConflict,
  writeLevel,
} from '../engine/engine.ts';
import {
  correctSchema,
  factFilterSchema,
  factFindSchema,
  factKeySchema,
  idArgumentSchema,
  principalOptionsSchema,
  rememberSchema,
} from '../engine/input-schemas.ts';
import { FACT_INDEX_KEY } from '../engine/metadata-keys.ts';
import type { FactKey, FactsApi, Principal } from '../engine/types.ts';
import { embedInBatches } from '../episodic/embed-batches.ts';
import { invalidInput, notFound, StrataError } from '../errors/strata-error.ts';
import { parseScope, type Scope } from '../scope/scope.ts';
import { parseArgs } from '../store/define-store.ts';
import { normalizeName } from '../store/normalize.ts';
import type { FactRecord, JsonValue, Metadata, Provenance } from '../store/records.ts';
import { withTransaction } from '../store/with-transaction.ts';
import { indexEntries, indexEpisodeIdsOf, syncFactIndex } from './fact-index.ts';
import { bySpecificity, CURRENT, EVERY_STATUS, findAllFacts, winners, withStaleness } from './fact-reads.ts';
import { resolveEntityType } from './fact-references.ts';
import { type FactWriteMode, type FactWriteOutcome, writeFact } from './fact-writer.ts';
import { sourceEpisodeIdsOf } from './outdated-episodes.ts';
import { proposeForReview } from './review-queue.ts';

/** A fact key in stored form. An omitted entity type means "any type" on reads and `entity` on writes. */
function storedKey(key: FactKey): { entityType?: string; entityId: string; key: string } {
  const entityId = normalizeName(key.entity);
  const attribute = normalizeName(key.key);
  if (entityId.length === 0) throw invalidInput('entity must contain a name, not only punctuation');
  if (attribute.length === 0) throw invalidInput('key must contain a name, not only punctuation');
  const entityType = key.entityType === undefined ? undefined : normalizeName(key.entityType);
  if (entityType !== undefined && entityType.length === 0) throw invalidInput('entityType must not be empty');
  return { ...(entityType ? { entityType } : {}), entityId, key: attribute };
}

/** Records a write's outcome in the audit trail. */
export function auditFactOutcome(audit: AuditTrail, outcome: FactWriteOutcome): void {
  if (outcome.kind === 'protected') return;
  const fact = outcome.fact;
  const details = {
    entityType: fact.entityType,
    entityId: fact.entityId,
    key: fact.key,
    version: fact.version,
  };
  if (outcome.kind === 'inserted') {
    audit.add({ scope: fact.scope, action: 'fact.insert', subjectType: 'fact', subjectId: fact.id, details });
  } else if (outcome.kind === 'confirmed') {
    audit.add({
      scope: fact.scope,
      action: 'fact.confirm',
      subjectType: 'fact',
      subjectId: fact.id,
      details,
    });
  } else {
    audit.add({
      scope: fact.scope,
      action: 'fact.supersede',
      subjectType: 'fact',
      subjectId: fact.id,
      details: { ...details, previousId: outcome.previous.id, corrected: fact.metadata.correction === true },
    });
  }
}

/** A `facts.find` selection in stored form (names already normalised). */
export interface StoredSelection {
  entityType?: string;
  entityId?: string;
  entityIdPrefix?: string;
  key?: string;
  where?: Record<string, JsonValue>;
  within: 'visible' | 'exact' | 'subtree';
}

/** A `find` or `search` selection in the store's terms (entity names normalised, ids as stored). */
export function storedSelection(query: {
  entityType?: string | undefined;
  entity?: string | undefined;
  entityPrefix?: string | undefined;
  key?: string | undefined;
  where?: Record<string, unknown> | undefined;
  within?: 'visible' | 'exact' | 'subtree' | undefined;
}): Omit<StoredSelection, 'within'> & { within?: StoredSelection['within'] } {
  return {
    ...(query.entityType !== undefined ? { entityType: normalizeName(query.entityType) } : {}),
    ...(query.entity !== undefined ? { entityId: normalizeName(query.entity) } : {}),
    ...(query.entityPrefix !== undefined ? { entityIdPrefix: query.entityPrefix } : {}),
    ...(query.key !== undefined ? { key: normalizeName(query.key) } : {}),
    ...(query.where !== undefined ? { where: query.where as Record<string, JsonValue> } : {}),
    ...(query.within !== undefined ? { within: query.within } : {}),
  };
}

/** The facts API but `search`, which recall's retrieval serves (see `memory/fact-search.ts`). */
export function createFactsApi(engine: Engine): Omit<FactsApi, 'search'> {
  const { store, clock, policy } = engine;
  const visibleTo = (fact: FactRecord | undefined, principal: Principal | undefined) =>
    fact !== undefined && fact.accessLevel <= readLevel(engine, principal) ? fact : undefined;

  /** Vectors for the index texts that have no episode yet (the rest keep theirs). A failure is returned, not thrown. */
  async function embedIndexTexts(
    target: Scope,
    key: ReturnType<typeof storedKey>,
    texts: string[],
    signal?: AbortSignal,
  ): Promise<{ vectors: Map<string, number[]>; error?: StrataError }> {
    const vectors = new Map<string, number[]>();
    const embedder = engine.embedder;
    if (!embedder || texts.length === 0) return { vectors };
    const fact = { entityType: key.entityType ?? 'entity', entityId: key.entityId, key: key.key };
    const entries = indexEntries(target, fact, texts);
    const present = new Set(
      (await store.episodes.get({ scope: target, ids: entries.map((e) => e.id) })).map((e) => e.id),
    );
    const todo = entries.filter((e) => !present.has(e.id)).map((e) => e.text);
    if (todo.length === 0) return { vectors };
    try {
      const embedded = await embedInBatches({
        embedder: documentEmbedder(embedder),
        texts: todo,
        ...(signal ? { signal } : {}),
      });
      for (const [i, text] of todo.entries()) vectors.set(text, embedded[i]!);
      return { vectors };
    } catch (error) {
      return { vectors, error: error as StrataError };
    }
  }

  async function write(
    scopeInput: Scope,
    input: { principal?: Principal } & ReturnType<typeof storedKey> & {
        value: unknown;
        metadata?: Metadata;
        index?: { texts: string[]; speaker?: string };
      },
    options: {
      mode: FactWriteMode;
      source: Provenance['source'];
      confidence: number;
      accessLevel: number;
      via?: string;
    },
  ): Promise<{ outcome: FactWriteOutcome; indexEpisodeIds?: string[] }> {
    const scope = parseScope(scopeInput);
    const target = longTermScopeOf(scope, policy);
    const at = clock.now();
    const provenance: Provenance = {
      source: options.source,
      at,
      ...(options.via ? { via: options.via } : {}),
      ...(scope.threadId ? { threadId: scope.threadId } : {}),
      ...(input.principal ? { principalId: input.principal.id } : {}),
    };
    const embedded = input.index ? await embedIndexTexts(target, input, input.index.texts) : undefined;
    // A lost race with concurrent writers of the key is retried, after a jittered pause, as a whole.
    return retryOnConflict(() =>
      withTransaction(store, async (tx) => {
        const audit = new AuditTrail({ actor: actorOf(input.principal), at });
        // One name, one identity per key: a key memory holds for the entity under another type is that fact.
        const entityType = await resolveEntityType(tx, {
          scope: target,
          entityType: input.entityType ?? 'entity',
          entityId: input.entityId,
          key: input.key,
        });
        const identity = { entityType, entityId: input.entityId, key: input.key };
        const entries = input.index ? indexEntries(target, identity, input.index.texts) : undefined;
        const metadata: Metadata = {
          ...(input.metadata ?? {}),
          ...(entries ? { [FACT_INDEX_KEY]: entries.map((e) => e.id) } : {}),
        };
        let outcome = await writeFact(tx, {
          scope: target,
          ...identity,
          value: input.value as FactRecord['value'],
          confidence: options.confidence,
          mode: options.mode,
          accessLevel: options.accessLevel,
          provenance,
          ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
          at,
        });
        let previousIndex: string[] = [];
        if (outcome.kind === 'superseded') previousIndex = indexEpisodeIdsOf(outcome.previous);
        if (outcome.kind === 'confirmed') {
          previousIndex = indexEpisodeIdsOf(outcome.fact);
          // A confirmation keeps the version: the new metadata (and index link) is merged into it.
          if (Object.keys(metadata).length > 0) {
            const fact = await tx.facts.update({ scope: target, id: outcome.fact.id, patch: { metadata } });
            outcome = { kind: 'confirmed', fact };
          }
        }
        auditFactOutcome(audit, outcome);
        if (entries && outcome.kind !== 'protected') {
          const { written, removed } = await syncFactIndex(tx, {
            scope: target,
            fact: identity,
            entries,
            previous: previousIndex,
            embeddings: embedded?.vectors ?? new Map(),
            ...(input.index?.speaker ? { speaker: input.index.speaker } : {}),
            accessLevel: outcome.fact.accessLevel,
            provenance,
            at,
          });
          if (written.length > 0 || removed.length > 0) {
            audit.add({
              scope: target,
              action: 'fact.index',
              subjectType: 'fact',
              subjectId: outcome.fact.id,
              details: { episodes: entries.length, written: written.length, removed: removed.length },
            });
          }
          if (embedded?.error) {
            audit.add({
              scope: target,
              action: 'embed.failed',
              details: {
                embedder: engine.embedder?.id ?? 'none',
                error: embedded.error.message,
                episodes: written.length,
              },
            });
          }
        }
        await audit.flush(tx);
        return { outcome, ...(entries ? { indexEpisodeIds: entries.map((e) => e.id) } : {}) };
      }),
    );
  }

  return {
    async get(scopeInput, keyInput, options) {
      const scope = parseScope(scopeInput);
      const key = storedKey(parseArgs(factKeySchema, keyInput, 'facts.get: key'));
      const { principal } = parseArgs(principalOptionsSchema, options, 'facts.get: options') ?? {};
      const found = await findAllFacts(store, {
        scope,
        accessLevel: readLevel(engine, principal),
        ...key,
        status: CURRENT,
      });
      const best = found.sort(bySpecificity)[0];
      return best ? withStaleness(best, clock.now(), policy.staleAfterDays) : null;
    },

    async list(scopeInput, filterInput, options) {
      const scope = parseScope(scopeInput);
      const filter = parseArgs(factFilterSchema, filterInput, 'facts.list: filter') ?? {};
      const { principal } = parseArgs(principalOptionsSchema, options, 'facts.list: options') ?? {};
      const found = await findAllFacts(store, {
        scope,
        accessLevel: readLevel(engine, principal),
        ...(filter.entityType ? { entityType: normalizeName(filter.entityType) } : {}),
        ...(filter.entity ? { entityId: normalizeName(filter.entity) } : {}),
        status: CURRENT,
      });
      const now = clock.now();
      return winners(found).map((f) => withStaleness(f, now, policy.staleAfterDays));
    },

    async find(scopeInput, queryInput, options) {
      const scope = parseScope(scopeInput);
      const query = parseArgs(factFindSchema, queryInput, 'facts.find: query') ?? {};
      const { principal } = parseArgs(principalOptionsSchema, options, 'facts.find: options') ?? {};
      const page = await store.facts.find({
        scope,
        ...storedSelection(query),
        accessLevel: readLevel(engine, principal),
        status: CURRENT,
        ...(query.order ? { order: query.order } : {}),
        ...(query.exclude ? { excludeIds: query.exclude } : {}),
        ...(query.limit !== undefined ? { limit: query.limit } : {}),
        ...(query.offset !== undefined ? { offset: query.offset } : {}),
        ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
      });
      const now = clock.now();
      return { ...page, items: page.items.map((f) => withStaleness(f, now, policy.staleAfterDays)) };
    },

    async history(scopeInput, keyInput, options) {
      const scope = parseScope(scopeInput);
      const key = storedKey(parseArgs(factKeySchema, keyInput, 'facts.history: key'));
      const { principal } = parseArgs(principalOptionsSchema, options, 'facts.history: options') ?? {};
      const found = await findAllFacts(store, {
        scope,
        accessLevel: readLevel(engine, principal),
        ...key,
        status: EVERY_STATUS,
      });
      const now = clock.now();
      return found
        .sort((a, b) => a.validFrom - b.validFrom || a.version - b.version || a.createdAt - b.createdAt)
        .map((f) => withStaleness(f, now, policy.staleAfterDays));
    },

    async confirmationsOf(scopeInput, idInput, options) {
      const scope = parseScope(scopeInput);
      const id = parseArgs(idArgumentSchema, idInput, 'facts.confirmationsOf: id');
      const { principal } =
        parseArgs(principalOptionsSchema, options, 'facts.confirmationsOf: options') ?? {};
      const accessLevel = readLevel(engine, principal);
      const [fact] = await store.facts.get({ scope, ids: [id], accessLevel });
      if (!fact) throw notFound('fact', id);
      const ids = sourceEpisodeIdsOf(fact);
      const found = ids.length > 0 ? await store.episodes.get({ scope, ids, accessLevel }) : [];
      const visible = new Map(found.map((e) => [e.id, e]));
      return {
        factId: fact.id,
        count: ids.length,
        firstSeenAt: fact.validFrom,
        lastSeenAt: fact.lastConfirmedAt,
        sources: ids.map((episodeId) => {
          const episode = visible.get(episodeId);
          if (!episode) return { episodeId };
          return {
            episodeId,
            occurredAt: episode.occurredAt,
            text: episode.text,
            status: episode.status,
            ...(episode.mergedInto ? { mergedInto: episode.mergedInto } : {}),
          };
        }),
      };
    },

    async remember(scopeInput, input) {
      const parsed = parseArgs(rememberSchema, input, 'facts.remember');
      const key = storedKey(parsed);
      readLevel(engine, parsed.principal);
      const accessLevel = writeLevel(engine, parsed.access);
      const confidence = parsed.confidence ?? 1;
      if (confidence < policy.reviewThreshold) {
        const scope = parseScope(scopeInput);
        const target = longTermScopeOf(scope, policy);
        const at = clock.now();
        const audit = new AuditTrail({ actor: actorOf(parsed.principal), at });
        const review = await withTransaction(store, async (tx) => {
          const { item, created } = await proposeForReview(tx, {
            scope: target,
            kind: 'fact',
            reason: 'low_confidence',
            proposal: {
              entityType: key.entityType ?? 'entity',
              entityId: key.entityId,
              key: key.key,
              value: parsed.value,
              kind: 'statement',
            },
            confidence,
            accessLevel,
            provenance: {
              source: 'api',
              at,
              ...(scope.threadId ? { threadId: scope.threadId } : {}),
              ...(parsed.principal ? { principalId: parsed.principal.id } : {}),
            },
            at,
          });
          if (created)
            audit.add({ scope: target, action: 'review.add', subjectType: 'review', subjectId: item.id });
          await audit.flush(tx);
          return item;
        });
        return { review, confirmed: false };
      }
      const { outcome, indexEpisodeIds } = await write(
        scopeInput,
        {
          ...key,
          value: parsed.value,
          ...(parsed.principal ? { principal: parsed.principal } : {}),
          ...(parsed.metadata ? { metadata: parsed.metadata } : {}),
          ...(parsed.index ? { index: parsed.index } : {}),
        },
        { mode: 'authoritative', source: 'api', confidence, accessLevel },
      );
      if (outcome.kind === 'protected')
        throw new StrataError({ code: 'internal', message: 'an API write was refused' });
      const previous =
        outcome.kind === 'superseded' ? visibleTo(outcome.previous, parsed.principal) : undefined;
      return {
        fact: outcome.fact,
        ...(previous ? { previous } : {}),
        confirmed: outcome.kind === 'confirmed',
        ...(indexEpisodeIds ? { indexEpisodeIds } : {}),
      };
    },

    async correct(scopeInput, input) {
      const parsed = parseArgs(correctSchema, input, 'facts.correct');
      const key = storedKey(parsed);
      readLevel(engine, parsed.principal);
      const { outcome } = await write(
        scopeInput,
        { ...key, value: parsed.value, ...(parsed.principal ? { principal: parsed.principal } : {}) },
        {
          mode: 'correction',
          source: 'human',
          confidence: 1,
          accessLevel: 0,
          ...(parsed.via ? { via: parsed.via } : {}),
        },
      );
      if (outcome.kind === 'protected')
        throw new StrataError({ code: 'internal', message: 'a correction was refused' });
      const previous =
        outcome.kind === 'superseded' ? visibleTo(outcome.previous, parsed.principal) : undefined;
      return { fact: outcome.fact, ...(previous ? { previous } : {}) };
    },

    async confirm(scopeInput, idInput, options) {
      const scope = parseScope(scopeInput);
      const id = parseArgs(idArgumentSchema, idInput, 'facts.confirm: id');
      const { principal } = parseArgs(principalOptionsSchema, options, 'facts.confirm: options') ?? {};
      const at = clock.now();
      const audit = new AuditTrail({ actor: actorOf(principal), at });
      return withTransaction(store, async (tx) => {
        const [fact] = await tx.facts.get({ scope, ids: [id], accessLevel: readLevel(engine, principal) });
        if (!fact) throw notFound('fact', id);
        if (!CURRENT.includes(fact.status)) {
          throw new StrataError({
            code: 'conflict',
            message: `fact "${id}" is ${fact.status}; confirm the current version (${fact.supersededBy ?? 'none'}) instead`,
            retryable: false,
            details: { id, supersededBy: fact.supersededBy },
          });
        }
        const updated = await tx.facts.update({
          scope,
          id,
          patch: { status: 'active', lastConfirmedAt: Math.max(at, fact.lastConfirmedAt) },
        });
        audit.add({ scope: fact.scope, action: 'fact.confirm', subjectType: 'fact', subjectId: id });
        await audit.flush(tx);
        return updated;
      });
    },
  };
}
