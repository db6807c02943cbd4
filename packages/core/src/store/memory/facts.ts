import { conflict, notFound } from '../../errors/strata-error.ts';
import { isInSubtree, isVisible, type Scope, sameScope, scopeDepth, tenantOf } from '../../scope/scope.ts';
import type { FactDriver } from '../contract.ts';
import { nextFactVersion } from '../fact-versions.ts';
import type { FactRecord } from '../records.ts';
import { matchesValue } from '../value-filter.ts';
import { paginate } from './pagination.ts';
import { compact } from './records-copy.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import { factKeyOf, type MemoryTables } from './tables.ts';
import { readable } from './visibility.ts';

const isCurrent = (fact: FactRecord) => fact.status === 'active' || fact.status === 'stale';

export function factSubStore(tables: MemoryTables): SyncSubStore<FactDriver> {
  const visible = (scope: Scope, id: string): FactRecord | undefined => {
    const fact = tables.facts.get(id);
    return fact && isVisible(fact.scope, scope) ? fact : undefined;
  };
  const assertNewId = (id: string) => {
    if (tables.facts.has(id)) throw conflict(`fact "${id}" already exists`, { id });
  };
  /** Every stored version of a key at exactly the fact's scope. */
  const versionsOf = (key: Pick<FactRecord, 'scope' | 'entityType' | 'entityId' | 'key'>) =>
    [...(tables.factVersions.get(factKeyOf(key)) ?? [])].map((id) => tables.facts.get(id)!);

  return {
    insert({ fact }) {
      assertNewId(fact.id);
      const currentId = tables.currentFacts.get(factKeyOf(fact));
      if (currentId !== undefined) {
        throw conflict(
          `a current fact already exists for ${fact.entityType} "${fact.entityId}" ${fact.key} in this scope: supersede "${currentId}" instead`,
          { currentId },
        );
      }
      const highest = Math.max(0, ...versionsOf(fact).map((f) => f.version));
      const record = compact({ ...fact, status: 'active', version: highest + 1 }) as FactRecord;
      tables.facts.set(record.id, record);
      return record;
    },

    supersede({ scope, id, expectedVersion, next, at }) {
      const previous = visible(scope, id);
      if (!previous) throw notFound('fact', id);
      if (!isCurrent(previous)) {
        throw conflict(`fact "${id}" is no longer current (status ${previous.status})`, {
          id,
          supersededBy: previous.supersededBy,
        });
      }
      if (expectedVersion !== undefined && previous.version !== expectedVersion) {
        throw conflict(`fact "${id}" is at version ${previous.version}, not ${expectedVersion}`, {
          id,
          version: previous.version,
        });
      }
      assertNewId(next.id);
      const ended: FactRecord = { ...previous, status: 'superseded', validTo: at, supersededBy: next.id };
      const current = nextFactVersion(previous, next, at);
      tables.facts.set(ended.id, ended);
      tables.facts.set(current.id, current);
      return { previous: ended, current };
    },

    get({ scope, ids, accessLevel }) {
      const out: FactRecord[] = [];
      for (const id of new Set(ids)) {
        const fact = tables.facts.get(id);
        if (fact && readable(fact, scope, accessLevel)) out.push(fact);
      }
      return out;
    },

    find(args) {
      const { scope, within, accessLevel, entityType, entityId, key, where, status, order } = args;
      const statuses = new Set(status);
      const entityIds = args.entityIds ? new Set(args.entityIds) : undefined;
      const excluded = new Set(args.excludeIds ?? []);
      const prefix = args.entityIdPrefix;
      const inScope =
        within === 'exact'
          ? (fact: FactRecord) => sameScope(fact.scope, scope) && readable(fact, scope, accessLevel)
          : within === 'subtree'
            ? (fact: FactRecord) =>
                isInSubtree(fact.scope, scope) &&
                (accessLevel === undefined || fact.accessLevel <= accessLevel)
            : (fact: FactRecord) => readable(fact, scope, accessLevel);
      const items: FactRecord[] = [];
      for (const fact of tables.facts.tenantRows(tenantOf(scope))) {
        if (!statuses.has(fact.status)) continue;
        if (entityType !== undefined && fact.entityType !== entityType) continue;
        if (entityId !== undefined && fact.entityId !== entityId) continue;
        if (entityIds !== undefined && !entityIds.has(fact.entityId)) continue;
        if (prefix !== undefined && !fact.entityId.startsWith(prefix)) continue;
        if (key !== undefined && fact.key !== key) continue;
        if (excluded.has(fact.id)) continue;
        if (!inScope(fact)) continue;
        if (where !== undefined && !matchesValue(fact.value, where)) continue;
        items.push(fact);
      }
      const paging = {
        items,
        limit: args.limit,
        ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
        ...(args.offset === undefined ? {} : { offset: args.offset }),
      };
      return order === 'confirmed'
        ? paginate({
            ...paging,
            listing: 'facts.confirmed',
            keyOf: (f) => [f.lastConfirmedAt, f.entityId, f.id],
            directions: ['desc', 'asc', 'asc'],
          })
        : paginate({
            ...paging,
            listing: 'facts',
            keyOf: (f) => [f.createdAt, f.id],
            directions: ['desc', 'desc'],
          });
    },

    entityPrefixes({ scope, within, accessLevel, entityType, key, status, separator, limit, cursor }) {
      const statuses = new Set(status);
      const prefixes = new Set<string>();
      for (const fact of tables.facts.tenantRows(tenantOf(scope))) {
        if (!statuses.has(fact.status)) continue;
        if (entityType !== undefined && fact.entityType !== entityType) continue;
        if (key !== undefined && fact.key !== key) continue;
        const cut = fact.entityId.lastIndexOf(separator);
        if (cut < 0) continue;
        const inScope =
          within === 'exact'
            ? sameScope(fact.scope, scope) && readable(fact, scope, accessLevel)
            : within === 'subtree'
              ? isInSubtree(fact.scope, scope) &&
                (accessLevel === undefined || fact.accessLevel <= accessLevel)
              : readable(fact, scope, accessLevel);
        if (inScope) prefixes.add(fact.entityId.slice(0, cut));
      }
      return paginate({
        listing: 'facts.entityPrefixes',
        items: prefixes,
        keyOf: (prefix) => [Buffer.from(prefix, 'utf8').toString('hex')],
        directions: ['asc'],
        limit,
        ...(cursor === undefined ? {} : { cursor }),
      });
    },

    history({ scope, accessLevel, entityType, entityId, key }) {
      const items: FactRecord[] = [];
      for (const fact of tables.facts.tenantRows(tenantOf(scope))) {
        if (fact.entityType !== entityType || fact.entityId !== entityId || fact.key !== key) continue;
        if (readable(fact, scope, accessLevel)) items.push(fact);
      }
      return items.sort(
        (a, b) =>
          scopeDepth(a.scope) - scopeDepth(b.scope) || a.version - b.version || (a.id < b.id ? -1 : 1),
      );
    },

    update({ scope, id, patch }) {
      const fact = visible(scope, id);
      if (!fact) throw notFound('fact', id);
      if (!isCurrent(fact))
        throw conflict(`fact "${id}" is ${fact.status}; only a current fact can be updated`, { id });
      const { metadata, ...fields } = compact(patch);
      const record: FactRecord = { ...fact, ...fields };
      if (metadata !== undefined) record.metadata = { ...fact.metadata, ...metadata };
      tables.facts.set(id, record);
      return record;
    },

    restore({ facts }) {
      for (const fact of facts) {
        assertNewId(fact.id);
        const versions = versionsOf(fact);
        if (versions.some((f) => f.version === fact.version)) {
          throw conflict(
            `${fact.entityType} "${fact.entityId}" ${fact.key} already has version ${fact.version}`,
            {
              id: fact.id,
              version: fact.version,
            },
          );
        }
        if (isCurrent(fact) && tables.currentFacts.has(factKeyOf(fact))) {
          throw conflict(
            `a current fact already exists for ${fact.entityType} "${fact.entityId}" ${fact.key}`,
            {
              id: fact.id,
              currentId: tables.currentFacts.get(factKeyOf(fact)),
            },
          );
        }
        tables.facts.set(fact.id, compact({ ...fact }) as FactRecord);
      }
      return { restored: facts.length };
    },

    delete({ scope, ids }) {
      let deleted = 0;
      for (const id of new Set(ids)) if (visible(scope, id) && tables.facts.delete(id)) deleted += 1;
      return { deleted };
    },
  };
}
