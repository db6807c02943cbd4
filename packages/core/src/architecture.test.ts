import { join } from 'node:path';
import { cruise, type IModule } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Core's import graph, read by dependency-cruiser from the sources (test files left out): its
 * folders form no cycle, and the store entry reaches none of the engine.
 */
const packageDir = join(import.meta.dirname, '..');

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** Every import between two of core's source files. */
async function sourceImports(): Promise<Edge[]> {
  const result = await cruise(['src'], {
    baseDir: packageDir,
    tsPreCompilationDeps: true,
    exclude: { path: '\\.test\\.ts$' },
    doNotFollow: { path: 'node_modules' },
  });
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned a report, not modules');
  return result.output.modules.flatMap((module: IModule) =>
    module.dependencies
      .filter((dependency) => dependency.resolved.startsWith('src/'))
      .map((dependency) => ({
        from: module.source,
        to: dependency.resolved,
        typeOnly: dependency.dependencyTypes.includes('type-only'),
      })),
  );
}

/** `src/recall/recall.ts` → `recall`; a file directly in `src/` is its own folder (`index.ts`). */
function folderOf(file: string): string {
  return file.split('/')[1] ?? file;
}

/** The groups of nodes that reach each other (Tarjan's strongly connected components), larger than one. */
function cycles(edges: ReadonlyArray<readonly [string, string]>): string[][] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (next.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** The files an entry loads when imported: what its imports reach, type-only imports left out. */
function loadedBy(entry: string, edges: readonly Edge[]): Set<string> {
  const loaded = new Set([entry]);
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const edge of edges) {
      if (edge.from !== file || edge.typeOnly || loaded.has(edge.to)) continue;
      loaded.add(edge.to);
      queue.push(edge.to);
    }
  }
  return loaded;
}

/** The folders the store contract stands on: no recall, layers, extraction or engine wiring. */
const STORE_FOLDERS = new Set(['store', 'scope', 'errors', 'validation', 'text', 'ports', 'scoring']);

describe('import graph of core', () => {
  let edges: Edge[] = [];
  beforeAll(async () => {
    edges = await sourceImports();
  }, 60_000);

  it('reads the graph (the engine imports its layers)', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({
      from: 'src/memory/create-memory.ts',
      to: 'src/recall/recall.ts',
      typeOnly: false,
    });
  });

  it('has no cycle between files', () => {
    const fileCycles = cycles(edges.map((edge) => [edge.from, edge.to] as const));
    expect(fileCycles).toEqual([]);
  });

  it('has no cycle between folders', () => {
    const between = edges
      .map((edge) => [folderOf(edge.from), folderOf(edge.to)] as const)
      .filter(([from, to]) => from !== to);
    const folderCycles = cycles(between).map((component) =>
      edges
        .filter((edge) => {
          const [from, to] = [folderOf(edge.from), folderOf(edge.to)];
          return from !== to && component.includes(from) && component.includes(to);
        })
        .map((edge) => `${edge.from} -> ${edge.to}`),
    );
    expect(folderCycles).toEqual([]);
  });

  it('loads only the store contract and what it stands on from the store entry', () => {
    const loaded = [...loadedBy('src/store/index.ts', edges)];
    expect(loaded).toContain('src/store/contract.ts');
    expect(loaded.filter((file) => !STORE_FOLDERS.has(folderOf(file)))).toEqual([]);
  });
});

describe('graph helpers', () => {
  it('finds a cycle through three nodes and none in a chain', () => {
    expect(
      cycles([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ]),
    ).toEqual([['a', 'b', 'c']]);
    expect(
      cycles([
        ['a', 'b'],
        ['b', 'c'],
      ]),
    ).toEqual([]);
  });

  it('follows runtime imports only', () => {
    const edges = [
      { from: 'e', to: 'a', typeOnly: false },
      { from: 'a', to: 'b', typeOnly: true },
      { from: 'a', to: 'c', typeOnly: false },
    ];
    expect([...loadedBy('e', edges)].sort()).toEqual(['a', 'c', 'e']);
  });

  it('names a file by its folder under src', () => {
    expect(folderOf('src/recall/recall.ts')).toBe('recall');
    expect(folderOf('src/store/memory/tables.ts')).toBe('store');
    expect(folderOf('src/index.ts')).toBe('index.ts');
  });
});
