import { AuditTrail } from '../memory/audit-log.ts';
import { type Engine, withTransaction } from '../memory/engine.ts';
import { consolidateOptionsSchema } from '../memory/input-schemas.ts';
import { subtreeScopes } from '../memory/subtree-scopes.ts';
import type { ConsolidateOptions, ConsolidationReport } from '../memory/types.ts';
import { parseScope, type Scope, sameScope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import type { EpisodeRecord } from '../store/records.ts';
import {
  type ArchivePlan,
  type ArchiveSummary,
  applyArchive,
  planArchive,
  prepareArchiveSummary,
} from './archive-decayed.ts';
import { applyMerge, type MergePlan, planMerges } from './merge-duplicates.ts';
import { applyStale, planStale } from './stale-facts.ts';
import { applyGraphSupersede, type GraphSupersedePlan, planGraphSupersede } from './superseded-graph.ts';

/**
 * Consolidation: the batch job that keeps memory from growing forever. For every scope in the
 * subtree it merges near-duplicate episodes, archives decayed low-value episodes into summaries
 * that keep their literals, flags stale facts, and marks superseded graph branches. It only
 * marks, never deletes; every change is written to the audit log. With `dryRun` it plans the
 * same changes and reports them without writing anything. It is never called from `observe` or
 * `recall`: run it from a scheduled job or the CLI.
 */

const DEFAULT_ARCHIVE_BELOW = 0.05;

interface ScopePlan {
  scope: Scope;
  merges: MergePlan[];
  archives: ArchivePlan[];
  stale: Awaited<ReturnType<typeof planStale>>;
  graph: GraphSupersedePlan[];
}

async function activeEpisodesAt(store: Store, scope: Scope): Promise<EpisodeRecord[]> {
  const out: EpisodeRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.episodes.list({
      scope,
      status: ['active'],
      order: 'asc',
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    out.push(...page.items.filter((e) => sameScope(e.scope, scope)));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

async function planScope(
  engine: Engine,
  args: { scope: Scope; root: Scope; now: number; archiveBelow: number; claimedNodes: Set<string> },
): Promise<ScopePlan> {
  const { store, policy } = engine;
  const episodes = await activeEpisodesAt(store, args.scope);
  const merges = await planMerges(store, {
    scope: args.scope,
    episodes,
    threshold: policy.duplicateSimilarity,
  });
  const touched = new Set(merges.flatMap((m) => [m.kept.id, ...m.merged.map((e) => e.id)]));
  const archives = planArchive({
    episodes: episodes.filter((e) => !touched.has(e.id)),
    now: args.now,
    halfLifeDays: policy.recencyHalfLifeDays,
    archiveBelow: args.archiveBelow,
  });
  const stale = await planStale(store, {
    scope: args.scope,
    now: args.now,
    staleAfterDays: policy.staleAfterDays,
  });
  const graph = await planGraphSupersede(store, {
    scope: args.scope,
    root: args.root,
    claimed: args.claimedNodes,
  });
  return { scope: args.scope, merges, archives, stale, graph };
}

export async function consolidate(
  engine: Engine,
  optionsInput: ConsolidateOptions,
): Promise<ConsolidationReport> {
  const options = parseArgs(consolidateOptionsSchema, optionsInput, 'consolidate: options');
  const root = parseScope(options.scope, 'consolidate: scope');
  const dryRun = options.dryRun ?? false;
  const archiveBelow = options.archiveBelow ?? DEFAULT_ARCHIVE_BELOW;
  const now = engine.clock.now();
  const report: ConsolidationReport = {
    dryRun,
    merged: [],
    archived: [],
    staleFacts: [],
    supersededGraph: [],
    auditIds: [],
  };

  const scopes: Scope[] = [];
  for await (const scope of subtreeScopes(engine.store, root)) scopes.push(scope);
  const claimedNodes = new Set<string>();

  for (const scope of scopes) {
    const plan = await planScope(engine, { scope, root, now, archiveBelow, claimedNodes });
    for (const m of plan.merges) {
      report.merged.push({
        keptId: m.kept.id,
        mergedIds: m.merged.map((e) => e.id),
        similarity: m.similarity,
      });
    }
    report.staleFacts.push(...plan.stale.map((f) => f.id));
    for (const g of plan.graph) report.supersededGraph.push(g.node.id, ...g.edges.map((e) => e.id));
    if (dryRun) {
      for (const a of plan.archives) report.archived.push({ ids: a.episodes.map((e) => e.id) });
      continue;
    }
    const summaries: ArchiveSummary[] = [];
    for (const a of plan.archives) summaries.push(await prepareArchiveSummary(engine, a));
    const audit = new AuditTrail({ actor: 'consolidation', at: now });
    const { summaryIds, auditIds } = await withTransaction(engine.store, async (tx) => {
      for (const m of plan.merges) await applyMerge(tx, m, audit);
      const ids: string[] = [];
      for (const [i, a] of plan.archives.entries()) {
        ids.push(await applyArchive(tx, { plan: a, summary: summaries[i]!, now, audit }));
      }
      for (const fact of plan.stale) await applyStale(tx, fact, audit);
      for (const g of plan.graph) await applyGraphSupersede(tx, { plan: g, now, audit });
      const written = await audit.flush(tx);
      return { summaryIds: ids, auditIds: written.map((e) => e.id) };
    });
    report.auditIds.push(...auditIds);
    plan.archives.forEach((a, i) => {
      report.archived.push({ ids: a.episodes.map((e) => e.id), summaryEpisodeId: summaryIds[i]! });
    });
  }
  return report;
}
