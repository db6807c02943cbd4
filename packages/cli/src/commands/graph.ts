import type { EdgeRecord, Memory, NodeRecord, NodeRef, Page, Scope } from '@strata-memory/core';
import type { Command } from 'commander';
import { table } from '../output.ts';
import { action } from '../program.ts';
import { integerOption, type ReaderOptions, readerOf, withReader } from '../reader-options.ts';
import { formatProvenance, scopeText } from '../text-format.ts';

/** A node argument: an id as `strata graph show` prints it (`node_…`), else a name or alias. */
export function nodeRef(value: string): NodeRef {
  return /^node_/.test(value) ? { id: value } : { name: value };
}

async function everyPage<T>(page: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const result = await page(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return items;
}

async function wholeGraph(
  memory: Memory,
  scope: Scope,
  statuses: Array<'active' | 'superseded'>,
): Promise<{ nodes: NodeRecord[]; edges: EdgeRecord[] }> {
  const nodes = await everyPage((cursor) =>
    memory.store.graph.listNodes({ scope, status: statuses, limit: 1000, cursor }),
  );
  const edges = await everyPage((cursor) =>
    memory.store.graph.listEdges({ scope, status: statuses, limit: 1000, cursor }),
  );
  // An active edge may still point at a superseded node: name it too.
  const listed = new Set(nodes.map((n) => n.id));
  const missing = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter((id) => !listed.has(id));
  for (let i = 0; i < missing.length; i += 1000) {
    nodes.push(...(await memory.store.graph.getNodes({ scope, ids: missing.slice(i, i + 1000) })));
  }
  return { nodes, edges };
}

function graphText(nodes: NodeRecord[], edges: EdgeRecord[]): string {
  const names = new Map(nodes.map((n) => [n.id, n.name]));
  const nodeTable = table(
    ['id', 'type', 'name', 'aliases', 'status', 'scope'],
    nodes.map((n) => [n.id, n.type, n.name, n.aliases.join(', '), n.status, scopeText(n.scope)]),
  );
  const edgeTable = table(
    ['id', 'from', 'relation', 'to', 'confidence', 'status', 'provenance'],
    edges.map((e) => [
      e.id,
      names.get(e.from) ?? e.from,
      e.relation,
      names.get(e.to) ?? e.to,
      e.confidence.toFixed(2),
      e.status,
      formatProvenance(e.provenance),
    ]),
  );
  return `${nodes.length} nodes\n${nodeTable}\n\n${edges.length} edges\n${edgeTable}`;
}

/** `strata graph show|impact`: entities, decisions and how they connect. */
export function register(program: Command): void {
  const graph = program.command('graph').description('entities and decisions: show [node] | impact <node>');

  withReader(
    graph
      .command('show')
      .description('nodes and edges visible at a scope, or those around one node')
      .argument('[node]', 'a node name, alias or id: show only what is within --hops of it'),
  )
    .option('--hops <n>', 'with a node: how far to walk, both directions', integerOption(1, 10), 2)
    .option('--all', 'include superseded nodes and edges')
    .action(
      action(
        async (ctx, node: string | undefined, options: ReaderOptions & { hops: number; all?: boolean }) => {
          const { memory } = await ctx.memory();
          const { scope, principal } = readerOf(memory, options);
          let nodes: NodeRecord[];
          let edges: EdgeRecord[];
          if (node === undefined) {
            ({ nodes, edges } = await wholeGraph(
              memory,
              scope,
              options.all ? ['active', 'superseded'] : ['active'],
            ));
          } else {
            const walk = await memory.graph.traverse(scope, {
              from: nodeRef(node),
              direction: 'both',
              maxHops: options.hops,
              principal,
            });
            nodes = [...walk.start, ...walk.reached.map((step) => step.node)];
            edges = walk.edges;
          }
          ctx.output.result({ scope, nodes, edges }, () => graphText(nodes, edges));
          return undefined;
        },
      ),
    );

  withReader(
    graph
      .command('impact')
      .description('what depends on or is affected by a node ("what breaks if it changes?")')
      .argument('<node>', 'a node name, alias or id'),
  )
    .option('--max-hops <n>', 'how far to follow dependencies', integerOption(1, 10))
    .action(
      action(async (ctx, node: string, options: ReaderOptions & { maxHops?: number }) => {
        const { memory } = await ctx.memory();
        const { scope, principal } = readerOf(memory, options);
        const impact = await memory.graph.impact(scope, {
          node: nodeRef(node),
          principal,
          ...(options.maxHops === undefined ? {} : { maxHops: options.maxHops }),
        });
        ctx.output.result({ scope, ...impact }, () => {
          const names = new Map(
            [impact.node, ...(impact.through ?? []), ...impact.affected.map((a) => a.node)].map((n) => [
              n.id,
              n.name,
            ]),
          );
          const lines = [`impact of ${impact.node.name} (${impact.node.id}):`];
          if (impact.through && impact.through.length > 0) {
            lines.push(`changes directly: ${impact.through.map((n) => n.name).join(', ')}`);
          }
          if (impact.affected.length === 0) lines.push('nothing depends on it');
          else {
            lines.push(
              table(
                ['affected', 'type', 'hops', 'path'],
                impact.affected.map((a) => [
                  a.node.name,
                  a.node.type,
                  a.depth,
                  a.path.nodeIds.map((id) => names.get(id) ?? id).join(' → '),
                ]),
              ),
            );
          }
          return lines.join('\n');
        });
        return undefined;
      }),
    );
}
