import type { Memory, Scope } from '@strata-memory/core';

/** Maria's scope in the seeded memory. */
export const MARIA: Scope = { orgId: 'acme', userId: 'maria' };

/**
 * Seeds a memory the way an agent would: two stated facts (one corrected by hand), a what-if that
 * waits in the review queue, and a small graph (a decision that affects a service others depend on).
 */
export async function seedInspectorMemory(
  memory: Memory,
  scope: Scope = MARIA,
): Promise<{ reviewId: string }> {
  await memory.observe(scope, [
    { id: 'm1', role: 'user', name: 'Maria', content: 'Supplier X lead time is 45 days.' },
    { id: 'm2', role: 'user', name: 'Maria', content: 'Construction suppliers are paid net 60.' },
  ]);
  await memory.facts.correct(scope, {
    entity: 'Supplier X',
    key: 'lead time',
    value: '30 days',
    principal: { id: 'maria' },
  });
  const whatIf = await memory.observe(scope, {
    id: 'm3',
    role: 'user',
    name: 'Maria',
    content: 'What if we extended terms to 90 days?',
  });
  const review = whatIf.review[0];
  if (!review) throw new Error('the what-if did not reach the review queue');
  const grpc = { name: 'gRPC migration', type: 'decision' };
  const auth = { name: 'auth service', type: 'component' };
  await memory.graph.relate(scope, { from: grpc, relation: 'affects', to: auth });
  await memory.graph.relate(scope, {
    from: { name: 'billing', type: 'component' },
    relation: 'depends_on',
    to: auth,
  });
  await memory.graph.relate(scope, {
    from: { name: 'client SDK', type: 'component' },
    relation: 'depends_on',
    to: auth,
  });
  return { reviewId: review.id };
}
