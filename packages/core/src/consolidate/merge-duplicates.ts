import type { AuditTrail } from '../engine/audit-log.ts';
import { LiteralAgreement } from '../episodic/literal-agreement.ts';
import { type Scope, sameScope } from '../scope/scope.ts';
import { cosine } from '../scoring/scoring.ts';
import type { Store, StoreTransaction } from '../store/contract.ts';
import type { EpisodeRecord } from '../store/records.ts';
import type { StatedFact, StatedItems } from './same-fact-episodes.ts';

/**
 * Near-duplicate merging: active episodes at one scope (and one access level) with the same
 * normalised text, or with cosine similarity at or above the threshold, form a group, provided
 * they state the same literals (`literal-agreement.ts`: "45 days" and "30 days" never merge).
 * Episodes that stated exactly the same facts (same entity, key and value) and graph items, read
 * from provenance (`same-fact-episodes.ts`), also form a group whatever their wording; the facts
 * keep every episode as a confirmation (`facts.confirmationsOf`). The newest episode of a group is kept; it takes the group's newest time, summed access count,
 * latest access and highest importance. The others get status `merged` and `mergedInto`.
 */

export interface MergePlan {
  kept: EpisodeRecord;
  merged: EpisodeRecord[];
  /**
   * The lowest similarity that joined the group (1 for identical text); for episodes joined by the
   * fact they state, their embeddings' cosine (0 when either has no embedding).
   */
  similarity: number;
  /** The facts every episode of the group stated, when that is what joined them. */
  facts: StatedFact[];
}

class Groups {
  private readonly parent = new Map<string, string>();
  private readonly weakest = new Map<string, number>();

  find(id: string): string {
    let root = id;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    this.parent.set(id, root);
    return root;
  }

  join(a: string, b: string, similarity: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    const weakest = Math.min(similarity, this.weakest.get(ra) ?? 1, this.weakest.get(rb) ?? 1);
    if (ra !== rb) this.parent.set(rb, ra);
    this.weakest.set(ra, weakest);
  }

  similarityOf(id: string): number {
    return this.weakest.get(this.find(id)) ?? 1;
  }
}

function newestFirst(a: EpisodeRecord, b: EpisodeRecord): number {
  return b.occurredAt - a.occurredAt || b.importance - a.importance || (a.id < b.id ? 1 : -1);
}

export async function planMerges(
  store: Store,
  args: { scope: Scope; episodes: EpisodeRecord[]; threshold: number; stated?: StatedItems },
): Promise<MergePlan[]> {
  const { scope, episodes, threshold, stated } = args;
  const byId = new Map(episodes.map((e) => [e.id, e]));
  const literals = new LiteralAgreement();
  const sameLiterals = (a: EpisodeRecord, b: EpisodeRecord) => literals.agree(a.text, b.text);
  const groups = new Groups();
  const byHash = new Map<string, EpisodeRecord[]>();
  for (const episode of episodes) {
    const key = `${episode.contentHash}\u0000${episode.accessLevel}`;
    const same = byHash.get(key) ?? [];
    const first = same.find((other) => sameLiterals(other, episode));
    if (first) groups.join(first.id, episode.id, 1);
    byHash.set(key, [...same, episode]);
  }

  const embedded = episodes.filter((e) => e.embedding !== undefined);
  if (store.capabilities.vectorSearch) {
    for (const episode of embedded) {
      const hits = await store.episodes.searchVector({
        scope,
        vector: episode.embedding!,
        limit: 10,
        status: ['active'],
      });
      for (const hit of hits) {
        const other = byId.get(hit.episode.id);
        if (!other || other.id === episode.id || hit.score < threshold) continue;
        if (other.accessLevel !== episode.accessLevel || !sameScope(other.scope, scope)) continue;
        if (!sameLiterals(episode, other)) continue;
        groups.join(episode.id, other.id, hit.score);
      }
    }
  } else {
    for (let i = 0; i < embedded.length; i++) {
      for (let j = i + 1; j < embedded.length; j++) {
        const a = embedded[i]!;
        const b = embedded[j]!;
        if (a.accessLevel !== b.accessLevel || !sameLiterals(a, b)) continue;
        const similarity = cosine(a.embedding!, b.embedding!);
        if (similarity >= threshold) groups.join(a.id, b.id, similarity);
      }
    }
  }

  const bySignature = new Map<string, EpisodeRecord[]>();
  for (const episode of episodes) {
    const signature = stated?.signatureOf.get(episode.id);
    if (signature === undefined) continue;
    const key = `${signature}\u0001${episode.accessLevel}`;
    const same = bySignature.get(key) ?? [];
    const first = same.find((other) => sameLiterals(other, episode));
    if (first) {
      const measured = first.embedding && episode.embedding ? cosine(first.embedding, episode.embedding) : 0;
      groups.join(first.id, episode.id, Math.max(0, measured));
    }
    bySignature.set(key, [...same, episode]);
  }

  const members = new Map<string, EpisodeRecord[]>();
  for (const episode of episodes) {
    const root = groups.find(episode.id);
    members.set(root, [...(members.get(root) ?? []), episode]);
  }
  const plans: MergePlan[] = [];
  for (const [root, group] of members) {
    if (group.length < 2) continue;
    const [kept, ...merged] = [...group].sort(newestFirst);
    const signature = stated?.signatureOf.get(kept!.id);
    const shared = signature !== undefined && group.every((e) => stated?.signatureOf.get(e.id) === signature);
    plans.push({
      kept: kept!,
      merged,
      similarity: Math.round(groups.similarityOf(root) * 1e6) / 1e6,
      facts: shared ? (stated?.factsOf.get(kept!.id) ?? []) : [],
    });
  }
  return plans.sort((a, b) => (a.kept.id < b.kept.id ? -1 : 1));
}

export async function applyMerge(tx: StoreTransaction, plan: MergePlan, audit: AuditTrail): Promise<void> {
  const group = [plan.kept, ...plan.merged];
  const lastAccessed = Math.max(...group.map((e) => e.lastAccessedAt ?? 0));
  await tx.episodes.update({
    scope: plan.kept.scope,
    id: plan.kept.id,
    patch: {
      occurredAt: Math.max(...group.map((e) => e.occurredAt)),
      accessCount: group.reduce((sum, e) => sum + e.accessCount, 0),
      importance: Math.max(...group.map((e) => e.importance)),
      ...(lastAccessed > 0 ? { lastAccessedAt: lastAccessed } : {}),
    },
  });
  for (const episode of plan.merged) {
    await tx.episodes.update({
      scope: episode.scope,
      id: episode.id,
      patch: { status: 'merged', mergedInto: plan.kept.id },
    });
  }
  audit.add({
    scope: plan.kept.scope,
    action: 'episode.merge',
    subjectType: 'episode',
    subjectId: plan.kept.id,
    details: {
      mergedIds: plan.merged.map((e) => e.id),
      similarity: plan.similarity,
      ...(plan.facts.length > 0 ? { facts: plan.facts.map((f) => ({ ...f })) } : {}),
    },
  });
}
