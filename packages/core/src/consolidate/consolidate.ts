import { AuditTrail } from '../engine/audit-log.ts';
import type { Engine } from '../engine/engine.ts';
import { consolidateOptionsSchema } from '../engine/input-schemas.ts';
import { subtreeScopes } from '../engine/subtree-scopes.ts';
import type { ConsolidateOptions, ConsolidationReport } from '../engine/types.ts';
import { parseScope, type Scope, sameScope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import type { EpisodeRecord, FactRecord } from '../store/records.ts';
import { withTransaction } from '../store/with-transaction.ts';
import {
  ARCHIVE_MAX_IMPORTANCE,
  type ArchivePlan,
  type ArchiveSummary,
  applyArchive,
  planArchive,
  prepareArchiveSummary,
} from './archive-decayed.ts';
import { applyMerge, type MergePlan, planMerges } from './merge-duplicates.ts';
import { statedItems } from './same-fact-episodes.ts';
import { applyStale, planStale } from './stale-facts.ts';
import { applyGraphSupersede, type GraphSupersedePlan, planGraphSupersede } from './superseded-graph.ts';

/**
 * Consolidation: the batch job that keeps memory from growing forever. For every scope in the
 * subtree it merges near-duplicate episodes, archives decayed low-value episodes into summaries
 * that keep their literals, flags stale facts, and marks superseded graph branches. It only
 * marks, never deletes; every change is written to the audit log. With `dryRun` it plans the
 * same changes and reports them without writing anything. It is never called from `observe` or
 * `recall`: run it from a scheduled job or the CLI.
 *
 * `observe` already refuses exact and near duplicates at write time, so text merges come from
 * episodes written another way (imports, an earlier engine, a lowered `duplicateSimilarity`);
 * the usual merge is of paraphrases, episodes that stated the same fact in other words. The regular work of a long-running memory is archiving, staleness and
 * retiring replaced graph branches. The report's `checked` and `notes` say what was examined and
 * why a step found nothing.
 */

const DEFAULT_ARCHIVE_BELOW = 0.05;

interface ScopePlan {
  scope: Scope;
  episodes: number;
  merges: MergePlan[];
  archives: ArchivePlan[];
  stale: FactRecord[];
  factsChecked: number;
  graph: GraphSupersedePlan[];
  replacementEdges: number;
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
    stated: await statedItems(store, { scope: args.scope, episodes }),
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
  return {
    scope: args.scope,
    episodes: episodes.length,
    merges,
    archives,
    stale: stale.stale,
    factsChecked: stale.checked,
    graph: graph.plans,
    replacementEdges: graph.replacementEdges,
  };
}

/** The report's `notes`: what each step did (or would do), or why it found nothing. */
function notesOf(
  report: Omit<ConsolidationReport, 'notes'>,
  policy: Engine['policy'],
  archiveBelow: number,
): string[] {
  const { checked } = report;
  const would = report.dryRun ? 'would ' : '';
  const where = `${checked.scopes} scope${checked.scopes === 1 ? '' : 's'}`;
  const folded = report.merged.reduce((n, m) => n + m.mergedIds.length, 0);
  const archived = report.archived.reduce((n, a) => n + a.ids.length, 0);
  return [
    report.merged.length > 0
      ? `merge: ${would}fold ${folded} duplicate episode(s) into ${report.merged.length} kept one(s)`
      : `merge: nothing to merge — ${checked.episodes} active episode(s) in ${where} checked; none is the same text as, at least ${policy.duplicateSimilarity} cosine-similar to, or stating the same facts as another with the same literals at its scope and access level (observe keeps such duplicates out at write time)`,
    report.archived.length > 0
      ? `archive: ${would}fold ${archived} decayed episode(s) into ${report.archived.length} summary episode(s)`
      : `archive: nothing to archive — at no scope and access level are two or more episodes older than ${policy.recencyHalfLifeDays} day(s), below importance ${ARCHIVE_MAX_IMPORTANCE} and below retention value ${archiveBelow}`,
    report.staleFacts.length > 0
      ? `stale: ${would}flag ${report.staleFacts.length} fact(s) unconfirmed for over ${policy.staleAfterDays} day(s)`
      : `stale: no stale facts — ${checked.facts} active fact(s) checked, each confirmed within ${policy.staleAfterDays} day(s)`,
    report.supersededGraph.length > 0
      ? `graph: ${would}retire ${report.supersededGraph.length} replaced node(s)/edge(s)`
      : `graph: nothing to retire — ${checked.replacementEdges} active replacement edge(s), none leaving an active replaced node in this subtree`,
  ];
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
  const scopes: Scope[] = [];
  for await (const scope of subtreeScopes(engine.store, root)) scopes.push(scope);
  const report: Omit<ConsolidationReport, 'notes'> = {
    dryRun,
    merged: [],
    archived: [],
    staleFacts: [],
    supersededGraph: [],
    auditIds: [],
    checked: { scopes: scopes.length, episodes: 0, facts: 0, replacementEdges: 0 },
  };
  const claimedNodes = new Set<string>();

  for (const scope of scopes) {
    const plan = await planScope(engine, { scope, root, now, archiveBelow, claimedNodes });
    report.checked.episodes += plan.episodes;
    report.checked.facts += plan.factsChecked;
    report.checked.replacementEdges += plan.replacementEdges;
    for (const m of plan.merges) {
      report.merged.push({
        keptId: m.kept.id,
        mergedIds: m.merged.map((e) => e.id),
        similarity: m.similarity,
        facts: m.facts,
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
  return { ...report, notes: notesOf(report, engine.policy, archiveBelow) };
}
