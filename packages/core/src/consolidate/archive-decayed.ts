import type { AuditTrail } from '../engine/audit-log.ts';
import type { Engine } from '../engine/engine.ts';
import { embedInBatches } from '../episodic/embed-batches.ts';
import { retentionValue } from '../scoring/scoring.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { createId } from '../store/normalize.ts';
import type { EpisodeRecord } from '../store/records.ts';
import { containsLiteral, findProtectedLiterals } from '../working/protected-literals.ts';

/**
 * Archiving: active, low-importance (below `ARCHIVE_MAX_IMPORTANCE`) episodes older than one
 * recency half-life whose retention value (importance decayed by age, lifted by use:
 * `retentionValue`) fell below a threshold are folded into one summary episode per scope and
 * access level (at most `GROUP_SIZE` each). The archived episodes keep their rows (status
 * `archived`, `metadata.archivedInto`), and the summary carries every number, amount, date and
 * name they held word for word, so nothing factual is lost from what recall can see.
 */

const GROUP_SIZE = 50;
const LINE_WORDS = 40;
/** Episodes at or above this importance are never archived, however old: they are not "low-value". */
export const ARCHIVE_MAX_IMPORTANCE = 0.5;
const DAY_MS = 86_400_000;

export interface ArchivePlan {
  episodes: EpisodeRecord[];
  accessLevel: number;
}

export function planArchive(args: {
  episodes: EpisodeRecord[];
  now: number;
  halfLifeDays: number;
  archiveBelow: number;
}): ArchivePlan[] {
  // Younger than one half-life is recent context, not decay, whatever its value.
  const youngest = args.now - args.halfLifeDays * DAY_MS;
  const decayed = args.episodes
    .filter(
      (e) =>
        e.importance < ARCHIVE_MAX_IMPORTANCE &&
        Math.max(e.occurredAt, e.lastAccessedAt ?? 0) <= youngest &&
        retentionValue(e, args.now, args.halfLifeDays) < args.archiveBelow,
    )
    .sort((a, b) => a.occurredAt - b.occurredAt || (a.id < b.id ? -1 : 1));
  const byLevel = new Map<number, EpisodeRecord[]>();
  for (const episode of decayed)
    byLevel.set(episode.accessLevel, [...(byLevel.get(episode.accessLevel) ?? []), episode]);
  const plans: ArchivePlan[] = [];
  for (const [accessLevel, episodes] of [...byLevel].sort((a, b) => a[0] - b[0])) {
    for (let i = 0; i < episodes.length; i += GROUP_SIZE) {
      const group = episodes.slice(i, i + GROUP_SIZE);
      // A summary of one episode saves nothing; it stays until it has company.
      if (group.length >= 2) plans.push({ episodes: group, accessLevel });
    }
  }
  return plans;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Every protected literal of the archived texts. */
export function literalsOf(episodes: EpisodeRecord[]): string[] {
  return [...new Set(episodes.flatMap((e) => findProtectedLiterals(e.text).map((l) => l.text)))];
}

/**
 * The deterministic summary: one dated line per episode (its first words), and after each line
 * any literal the shortened line dropped.
 */
export function digestOf(episodes: EpisodeRecord[]): string {
  const first = episodes[0]!;
  const last = episodes[episodes.length - 1]!;
  const lines = [
    `Archived ${episodes.length} older messages (${day(first.occurredAt)} to ${day(last.occurredAt)}):`,
  ];
  for (const episode of episodes) {
    const words = episode.text.trim().split(/\s+/);
    const short = words.length > LINE_WORDS ? `${words.slice(0, LINE_WORDS).join(' ')} …` : words.join(' ');
    const missing = findProtectedLiterals(episode.text)
      .map((l) => l.text)
      .filter((literal) => !containsLiteral(short, literal));
    const who = episode.speaker ?? episode.role;
    const kept = missing.length > 0 ? ` [also: ${[...new Set(missing)].join('; ')}]` : '';
    lines.push(`- ${day(episode.occurredAt)}${who ? ` ${who}` : ''}: ${short}${kept}`);
  }
  return lines.join('\n');
}

/**
 * The summary text: the configured summarizer's, when it keeps every literal verbatim; else the
 * deterministic digest.
 */
async function summaryText(engine: Engine, episodes: EpisodeRecord[]): Promise<{ text: string; by: string }> {
  const mustKeep = literalsOf(episodes);
  try {
    const { summary } = await engine.summarizer.summarize({
      messages: episodes.map((e) => ({
        id: e.id,
        role: e.role ?? 'user',
        content: e.text,
        ...(e.speaker ? { name: e.speaker } : {}),
        at: e.occurredAt,
      })),
      maxTokens: Math.max(200, 40 * episodes.length),
      mustKeep,
    });
    if (summary.trim().length > 0 && mustKeep.every((literal) => containsLiteral(summary, literal))) {
      return { text: summary, by: engine.summarizer.id };
    }
  } catch {
    // Fall through to the digest: archiving must not depend on a model being up.
  }
  return { text: digestOf(episodes), by: 'digest' };
}

export interface ArchiveSummary {
  text: string;
  by: string;
  embedding?: number[];
}

/** Writes the summary text and its vector (the slow part: run it outside any transaction). */
export async function prepareArchiveSummary(engine: Engine, plan: ArchivePlan): Promise<ArchiveSummary> {
  const { text, by } = await summaryText(engine, plan.episodes);
  if (!engine.embedder) return { text, by };
  try {
    const [embedding] = await embedInBatches({ embedder: engine.embedder, texts: [text] });
    return { text, by, ...(embedding ? { embedding } : {}) };
  } catch {
    return { text, by };
  }
}

export async function applyArchive(
  tx: StoreTransaction,
  args: { plan: ArchivePlan; summary: ArchiveSummary; now: number; audit: AuditTrail },
): Promise<string> {
  const { plan, now } = args;
  const episodes = plan.episodes;
  const scope = episodes[0]!.scope;
  const { text, by, embedding } = args.summary;
  const ids = episodes.map((e) => e.id);
  const [summary] = await tx.episodes.put({
    episodes: [
      {
        id: createId('ep'),
        scope,
        text,
        occurredAt: Math.max(...episodes.map((e) => e.occurredAt)),
        createdAt: now,
        importance: Math.max(...episodes.map((e) => e.importance)),
        ...(embedding ? { embedding } : {}),
        accessLevel: plan.accessLevel,
        provenance: { source: 'consolidation', at: now },
        metadata: {
          archivedIds: ids,
          archivedFrom: Math.min(...episodes.map((e) => e.occurredAt)),
          archivedTo: Math.max(...episodes.map((e) => e.occurredAt)),
          summarizedBy: by,
        },
      },
    ],
  });
  for (const episode of episodes) {
    await tx.episodes.update({
      scope: episode.scope,
      id: episode.id,
      patch: { status: 'archived', metadata: { archivedInto: summary!.id } },
    });
  }
  args.audit.add({
    scope,
    action: 'episode.archive',
    subjectType: 'episode',
    subjectId: summary!.id,
    details: { archivedIds: ids, summarizedBy: by },
  });
  return summary!.id;
}
