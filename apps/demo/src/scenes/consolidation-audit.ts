import type { AuditEntry, ConsolidationReport, Memory } from '@strata-memory/core';
import { ORG, people } from '../cast.ts';
import type { Demo } from '../demo.ts';
import { countPages } from '../inventory.ts';
import { decided, label, narrate, quote, sceneTitle } from '../print.ts';
import { formatDay } from '../simulated-clock.ts';

const CONSOLIDATION_ACTIONS = ['episode.merge', 'episode.archive', 'fact.stale', 'graph.supersede'];

/**
 * Scene 9. Consolidation is the batch job that keeps memory from growing forever: merge near
 * duplicates, archive decayed episodes into summaries that keep their literals, flag stale facts,
 * retire replaced graph branches. First a dry run (report only), then the real run, read back
 * from the audit log.
 */
export async function consolidationAudit(demo: Demo): Promise<void> {
  const { memory, clock, checks } = demo;
  sceneTitle(9, 'Consolidation: a dry run, then the real run, read from the audit log');
  clock.laterDays(1);
  narrate(`${clock.today()}: the nightly job runs memory.consolidate({ scope: { orgId: 'acme' } }).`);

  const before = await snapshot(memory);
  const dry = await memory.consolidate({ scope: ORG, dryRun: true });
  label('dry run — what would change (nothing is written):');
  quote(planLines(dry).join('\n'));
  if (dry.merged.length === 0) {
    narrate('No near duplicates left to merge: observe already refused to store them (scene 1, the repeat).');
  }
  const afterDry = await snapshot(memory);
  checks.claim(
    'the dry run changed nothing (same audit log, same episode, fact and graph states)',
    dry.auditIds.length === 0 && JSON.stringify(before) === JSON.stringify(afterDry),
    `before ${JSON.stringify(before)}, after ${JSON.stringify(afterDry)}`,
  );

  const since = clock.now();
  const real = await memory.consolidate({ scope: ORG });
  decided(`consolidation wrote ${real.auditIds.length} audit entries`);
  checks.claim(
    'the real run did exactly what the dry run reported',
    JSON.stringify(planOf(real)) === JSON.stringify(planOf(dry)),
    `dry run ${JSON.stringify(planOf(dry))}; real run ${JSON.stringify(planOf(real))}`,
  );

  const entries = (
    await memory.audit.list(ORG, { actions: CONSOLIDATION_ACTIONS, since, limit: 500 })
  ).items.filter((entry) => real.auditIds.includes(entry.id));
  label('audit.list(acme) — what consolidation did, and why:');
  if (entries.length > 0) {
    quote((await Promise.all(entries.map((entry) => auditLine(memory, entry)))).join('\n'));
  } else {
    const earlier = (await memory.audit.list(ORG, { actions: CONSOLIDATION_ACTIONS, limit: 20 })).items;
    quote(
      [
        'nothing to do this time. Earlier consolidation runs, as the audit log keeps them:',
        ...(await Promise.all(earlier.map((entry) => auditLine(memory, entry)))),
      ].join('\n'),
    );
  }
  const count = (action: string) => entries.filter((e) => e.action === action).length;
  const graphSubjects = entries.filter((e) => e.action === 'graph.supersede').map((e) => e.subjectId ?? '');
  checks.claim(
    'every merge, archive, staleness flag and graph change is in the audit log',
    entries.length === real.auditIds.length &&
      count('episode.merge') === real.merged.length &&
      count('episode.archive') === real.archived.length &&
      count('fact.stale') === real.staleFacts.length &&
      graphSubjects.every((id) => real.supersededGraph.includes(id)) &&
      (real.supersededGraph.length === 0) === (graphSubjects.length === 0),
    `${entries.length} entries for ${real.auditIds.length} audit ids`,
  );

  const again = await memory.consolidate({ scope: ORG, dryRun: true });
  const left = planLines(again).filter((line) => !line.endsWith(': none'));
  checks.claim('a dry run right after finds nothing left to do', left.length === 0, left.join('; '));
}

function planOf(report: ConsolidationReport) {
  const sorted = (ids: string[]) => [...ids].sort();
  return {
    merged: report.merged.map((m) => [m.keptId, sorted(m.mergedIds)]).sort(),
    archived: report.archived.map((a) => sorted(a.ids)).sort(),
    staleFacts: sorted(report.staleFacts),
    supersededGraph: sorted(report.supersededGraph),
  };
}

function planLines(report: ConsolidationReport): string[] {
  const archivedEpisodes = report.archived.reduce((n, a) => n + a.ids.length, 0);
  const none = (n: number, text: string) => (n === 0 ? 'none' : text);
  return [
    `merge near-duplicate episodes: ${none(report.merged.length, `${report.merged.length} group(s), ${report.merged.reduce((n, m) => n + m.mergedIds.length, 0)} episode(s) folded in`)}`,
    `archive decayed episodes: ${none(archivedEpisodes, `${archivedEpisodes} episode(s) into ${report.archived.length} summary episode(s)`)}`,
    `flag stale facts: ${none(report.staleFacts.length, `${report.staleFacts.length} fact(s)`)}`,
    `retire replaced graph branches: ${none(report.supersededGraph.length, `${report.supersededGraph.length} node(s)/edge(s)`)}`,
  ];
}

/** One audit entry in words, with names looked up through the store. */
async function auditLine(memory: Memory, entry: AuditEntry): Promise<string> {
  const d = entry.details;
  const who = `${entry.at ? formatDay(entry.at) : ''} ${entry.actor}`.trim();
  switch (entry.action) {
    case 'fact.stale':
      return `fact.stale       ${String(d.entityId)} · ${String(d.key)} — unconfirmed since ${formatDay(Number(d.lastConfirmedAt))} (${who})`;
    case 'episode.archive': {
      const ids = Array.isArray(d.archivedIds) ? d.archivedIds.map(String) : [];
      const [summary] = await memory.store.episodes.get({ scope: entry.scope, ids: [entry.subjectId ?? ''] });
      return `episode.archive  ${ids.length} decayed episodes folded into one summary (${who}):\n    "${summary?.text.replace(/\n/g, ' ⏎ ') ?? '?'}"`;
    }
    case 'episode.merge': {
      const ids = Array.isArray(d.mergedIds) ? d.mergedIds.length : 0;
      return `episode.merge    ${ids} near duplicate(s) merged into ${entry.subjectId}, similarity ${String(d.similarity)} (${who})`;
    }
    case 'graph.supersede': {
      const ids = [entry.subjectId ?? '', typeof d.replacedBy === 'string' ? d.replacedBy : ''].filter(
        Boolean,
      );
      const nodes = await memory.store.graph.getNodes({ scope: entry.scope, ids });
      const name = (id: string) => nodes.find((n) => n.id === id)?.name ?? id;
      const by = typeof d.replacedBy === 'string' ? `, replaced by ${name(d.replacedBy)}` : '';
      return `graph.supersede  ${name(entry.subjectId ?? '')} retired${by} (${who})`;
    }
    default:
      return `${entry.action} ${entry.subjectId ?? ''} (${who})`;
  }
}

/** What a dry run must leave untouched. */
async function snapshot(memory: Memory) {
  const episodes: Record<string, number> = {};
  let staleFacts = 0;
  let supersededNodes = 0;
  for (const person of people) {
    for (const status of ['active', 'merged', 'archived'] as const) {
      episodes[status] =
        (episodes[status] ?? 0) +
        (await memory.store.episodes.count({ scope: person.scope, status: [status] }));
    }
    staleFacts += (await memory.facts.list(person.scope)).filter((f) => f.status === 'stale').length;
    const nodes = await memory.store.graph.listNodes({ scope: person.scope, limit: 500 });
    supersededNodes += nodes.items.filter((n) => n.status === 'superseded').length;
  }
  const audit = await countPages((cursor) =>
    memory.audit.list(ORG, { limit: 1000, ...(cursor ? { cursor } : {}) }),
  );
  return { audit, episodes, staleFacts, supersededNodes };
}
