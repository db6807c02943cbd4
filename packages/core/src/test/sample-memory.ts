import type { Memory } from '../engine/types.ts';
import type { Scope } from '../scope/scope.ts';
import type { ManualClock } from './manual-clock.ts';

/** The scopes `seedSampleMemory` writes to. */
export const SAMPLE_SCOPES = {
  org: { orgId: 'acme' },
  maria: { orgId: 'acme', userId: 'maria' },
  mariaThread: { orgId: 'acme', userId: 'maria', threadId: 'procurement' },
  mariaDesign: { orgId: 'acme', userId: 'maria', threadId: 'design' },
  bob: { orgId: 'acme', userId: 'bob' },
  bobThread: { orgId: 'acme', userId: 'bob', threadId: 'budget' },
  solo: { userId: 'sam', threadId: 'notes' },
} satisfies Record<string, Scope>;

/**
 * Fills a memory the way an agent would, with the rules extractor: a few turns in several threads
 * and tenants, so it holds facts (one corrected, so with history), graph nodes and edges (a
 * decision), a review queue (one item approved, one rejected, one pending), state, a ledger entry
 * and the audit log. Moves the clock between turns, so every record has its own time.
 */
export async function seedSampleMemory(memory: Memory, clock: ManualClock): Promise<void> {
  const s = SAMPLE_SCOPES;
  const say = async (scope: Scope, content: string, role: 'user' | 'assistant' = 'user') => {
    clock.advance(60_000);
    await memory.observe(scope, {
      role,
      content,
      ...(role === 'user' ? { name: scope.userId ?? 'user' } : {}),
    });
  };
  await say(s.mariaThread, "Supplier X's lead time is 45 days.");
  await say(s.mariaThread, 'Noted: 45 days for Supplier X.', 'assistant');
  await say(s.mariaThread, 'Our payment terms are net 60.');
  await say(s.mariaThread, 'What if we extended terms to 90 days?');
  clock.advanceDays(2);
  await say(s.mariaThread, 'No, the lead time is actually 30 days, not 45.');
  await say(s.mariaDesign, 'We decided to use gRPC instead of REST for internal services.');
  await say(s.mariaDesign, 'The gRPC migration affects the service API.');
  await say(s.mariaDesign, 'Auth, billing and the client SDK depend on the service API.');
  await say(s.mariaDesign, 'What if we replaced Postgres with MySQL?');
  await say(s.bobThread, 'Approvals above 50,000 USD need sign-off.');
  await say(s.bobThread, 'Supplier X quoted $4,200 for the steel beams.');
  await say(s.solo, 'My favourite editor is Helix.');
  clock.advance(60_000);
  await memory.facts.remember(s.org, {
    entityType: 'organization',
    entity: 'acme',
    key: 'fiscal year start',
    value: 'April',
  });
  const pending = await memory.review.list(s.maria);
  const [first, second] = pending;
  if (first) {
    clock.advance(60_000);
    await memory.review.approve(s.maria, first.id, {
      principal: { id: 'maria' },
      note: 'agreed in the board',
    });
  }
  if (second) {
    clock.advance(60_000);
    await memory.review.reject(s.maria, second.id, { principal: { id: 'maria' } });
  }
  clock.advance(60_000);
  await memory.state.set(s.bob, 'inbox cursor', { page: 3 });
  await memory.state.set(s.bob, 'inbox cursor', { page: 4 });
  const claim = await memory.ledger.claim(s.bob, 'msg_abc123', { owner: 'mailer' });
  if (claim.claimed)
    await memory.ledger.complete(s.bob, 'msg_abc123', { owner: 'mailer', result: { archived: true } });
}
