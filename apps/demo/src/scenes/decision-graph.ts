import { priya } from '../cast.ts';
import type { Demo } from '../demo.ts';
import { label, narrate, quote, sceneTitle } from '../print.ts';
import { claimNoLargerThanHistory, openSession } from '../session.ts';

const EXPECTED = ['auth', 'billing', 'client sdk'];

/**
 * Scene 6. Decisions and dependencies become a graph as people talk. "What breaks if we roll back
 * the gRPC migration?" is a walk from the decision, not a similarity search: exactly the three
 * components it affects, and not what merely sits nearby (Postgres, the docs site).
 */
export async function decisionGraph(demo: Demo): Promise<void> {
  const { memory, clock, checks } = demo;
  sceneTitle(6, 'A decision graph: what breaks if we roll back the gRPC migration?');
  narrate('Priya leads the platform team at Acme. Her notes on the REST → gRPC migration:');

  clock.laterDays(1);
  const planning = openSession(demo, priya, 'priya-1');
  await planning.says('We migrated the internal APIs from REST to gRPC.');
  await planning.says('The gRPC migration affects auth, billing and the client SDK.');
  await planning.says('Billing depends on Postgres.');
  await planning.says('The docs site uses the REST API.');

  clock.laterDays(6);
  const incident = openSession(demo, priya, 'priya-incident');
  const context = await incident.asks('What breaks if we roll back the gRPC migration?');

  const impact = await memory.graph.impact(priya.scope, { node: { name: 'gRPC migration' } });
  label(`graph.impact(${impact.node.name}) — what depends on it or is affected by it:`);
  quote(
    impact.affected
      .map((a) => `${a.node.name} (${a.node.type}, ${a.depth} hop${a.depth === 1 ? '' : 's'})`)
      .join('\n') || '(nothing)',
  );

  const affected = impact.affected.map((a) => a.node.name.toLowerCase()).sort();
  checks.claim(
    'graph.impact returns exactly auth, billing and the client SDK',
    JSON.stringify(affected) === JSON.stringify(EXPECTED),
    `got: ${affected.join(', ') || 'nothing'}`,
  );
  const reached = new Set(
    context.sections.graph
      .filter((path) => path.nodes[0]?.name.toLowerCase() === 'grpc migration')
      .flatMap((path) => path.nodes.slice(1).map((n) => n.name.toLowerCase())),
  );
  const missing = EXPECTED.filter((name) => !reached.has(name));
  checks.claim(
    "the agent's context connects the gRPC migration to all three",
    missing.length === 0,
    `missing from the recalled paths: ${missing.join(', ')}`,
  );
  const nearby = ['Postgres', 'docs site'].filter((name) => context.render().includes(name));
  checks.claim(
    'the block names nothing the rollback does not reach (Postgres, the docs site)',
    nearby.length === 0,
    `the block names: ${nearby.join(', ')}`,
  );
  claimNoLargerThanHistory(demo, [context]);
}
