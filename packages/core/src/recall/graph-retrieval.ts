import type { ExplainEntry, ItemScores } from '../engine/types.ts';
import { DEPENDENCY_RELATIONS, EFFECT_RELATIONS } from '../graph/impact.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { LIMITS } from '../store/limits.ts';
import type { EdgeRecord, NodeRecord } from '../store/records.ts';
import { escapeMemoryText } from '../text/render-context.ts';
import { contentWords, isStopWord } from '../text/terms.ts';
import type { RecallTuning } from './tuning.ts';

export interface PathCandidate {
  id: string;
  nodes: NodeRecord[];
  edges: EdgeRecord[];
  /** Rendered line (escaped): `auth —depends_on→ gRPC API`. */
  text: string;
  scores: ItemScores;
  value: number;
  reason: string;
  depth: number;
}

export interface GraphRetrieval {
  /** Nodes the query named (start points); empty when the query names no known entity. */
  named: NodeRecord[];
  paths: PathCandidate[];
  dropped: ExplainEntry[];
  notes: ExplainEntry[];
}

const MAX_NGRAM = 4;
/** Named nodes traversed from, at most. */
const MAX_START_NODES = 5;

/**
 * Candidate entity names in a query: every run of one to four words, with possessives dropped
 * ("auth's" → "auth"); runs made only of stop words are skipped. The store matches them against
 * node names and aliases (normalised), so this is one indexed lookup, no model call.
 */
export function candidateNames(query: string): string[] {
  const tokens = query
    .split(/[\s,;:!?()[\]{}"“”]+/u)
    .map((t) => t.replace(/['’]s$/u, '').replace(/^[.'’]+|[.'’]+$/gu, ''))
    .filter((t) => t.length > 0);
  const out = new Set<string>();
  for (let size = MAX_NGRAM; size >= 1; size--) {
    for (let i = 0; i + size <= tokens.length; i++) {
      const gram = tokens.slice(i, i + size);
      if (gram.every((w) => isStopWord(w))) continue;
      const name = gram.join(' ');
      if (size === 1 && name.length < 2) continue;
      if (name.length > LIMITS.maxNameChars) continue;
      out.add(name);
      if (out.size >= LIMITS.maxBatch) return [...out];
    }
  }
  return [...out];
}

/**
 * Graph retrieval, only when the query names a known entity or alias: a bounded breadth-first
 * traversal (both directions) from the named nodes; each reached node gives one path from a
 * named node, valued by closeness and by how many of the query's other words it touches.
 */
export async function retrieveGraphPaths(args: {
  store: Store;
  scope: Scope;
  accessLevel: number;
  query: string;
  tuning: RecallTuning;
}): Promise<GraphRetrieval> {
  const names = candidateNames(args.query);
  const notes: ExplainEntry[] = [];
  const dropped: ExplainEntry[] = [];
  if (names.length === 0) return { named: [], paths: [], dropped, notes };
  const named = await args.store.graph.findNodes({
    scope: args.scope,
    accessLevel: args.accessLevel,
    names,
  });
  if (named.length === 0) {
    notes.push({
      layer: 'graph',
      id: 'graph-router',
      tokens: 0,
      reason: 'the query names no known entity; graph not traversed',
      included: false,
    });
    return { named, paths: [], dropped, notes };
  }
  // Longer names first ("gRPC API" before "API"); each start is traversed on its own so a path
  // between two named entities is found from either end.
  const start = [...named].sort((a, b) => b.name.length - a.name.length).slice(0, MAX_START_NODES);
  const namedIds = new Set(start.map((n) => n.id));
  const queryTerms = new Set(contentWords(args.query));
  const candidates: PathCandidate[] = [];
  const seen = new Set<string>();
  for (const node of start) {
    const traversal = await args.store.graph.traverse({
      scope: args.scope,
      accessLevel: args.accessLevel,
      start: [node.id],
      direction: 'both',
      maxHops: args.tuning.graphMaxHops,
      limit: 100,
    });
    const nodes = new Map<string, NodeRecord>([[node.id, node]]);
    for (const n of traversal.start) nodes.set(n.id, n);
    for (const step of traversal.reached) nodes.set(step.node.id, step.node);
    const edges = new Map(traversal.edges.map((e) => [e.id, e]));
    for (const step of traversal.reached) {
      const key = [...step.path.edgeIds].sort().join('>');
      if (seen.has(key)) continue;
      seen.add(key);
      const pathNodes = step.path.nodeIds.map((id) => nodes.get(id)).filter((n): n is NodeRecord => !!n);
      const pathEdges = step.path.edgeIds.map((id) => edges.get(id)).filter((e): e is EdgeRecord => !!e);
      if (pathNodes.length !== step.path.nodeIds.length || pathEdges.length !== step.path.edgeIds.length)
        continue;
      const { candidate, mentioned } = pathCandidate({ step, pathNodes, pathEdges, namedIds, queryTerms });
      const turn = mentioned ? undefined : turnAgainstFlow(pathNodes, pathEdges);
      if (turn === undefined) candidates.push(candidate);
      else
        dropped.push({
          layer: 'graph',
          id: candidate.id,
          tokens: 0,
          scores: candidate.scores,
          reason: `${candidate.text}: ${turn}`,
          included: false,
        });
    }
  }
  candidates.sort((a, b) => b.value - a.value || a.id.localeCompare(b.id));
  for (const c of candidates.slice(args.tuning.graphMaxPaths)) {
    dropped.push({
      layer: 'graph',
      id: c.id,
      tokens: 0,
      scores: c.scores,
      reason: `ranked below the top ${args.tuning.graphMaxPaths} paths`,
      included: false,
    });
  }
  if (candidates.length === 0) {
    notes.push({
      layer: 'graph',
      id: 'graph-router',
      tokens: 0,
      reason: `named ${start.map((n) => n.name).join(', ')}; no active connections within ${args.tuning.graphMaxHops} hops`,
      included: false,
    });
  }
  return { named: start, paths: candidates.slice(0, args.tuning.graphMaxPaths), dropped, notes };
}

function pathCandidate(args: {
  step: { depth: number; node: NodeRecord; path: { edgeIds: string[] } };
  pathNodes: NodeRecord[];
  pathEdges: EdgeRecord[];
  namedIds: Set<string>;
  queryTerms: Set<string>;
}): { candidate: PathCandidate; mentioned: boolean } {
  const { step, pathNodes, pathEdges, namedIds, queryTerms } = args;
  const touched = pathNodes.filter(
    (n) =>
      !namedIds.has(n.id) && contentWords(`${n.name} ${n.aliases.join(' ')}`).some((t) => queryTerms.has(t)),
  ).length;
  const bothEndsNamed = namedIds.has(step.node.id);
  const closeness = 0.75 ** (step.depth - 1);
  const confidence = pathEdges.reduce((c, e) => c * e.confidence, 1);
  const value =
    (0.55 * closeness + 0.25 * Math.min(1, touched) + (bothEndsNamed ? 0.2 : 0)) * (0.7 + 0.3 * confidence);
  const reason = [
    `${pathNodes[0]!.name} is named in the query`,
    `${step.depth} hop${step.depth === 1 ? '' : 's'}`,
    bothEndsNamed ? 'connects two named entities' : '',
    touched > 0 ? 'touches other query words' : '',
  ]
    .filter(Boolean)
    .join(', ');
  const candidate = {
    id: `path:${step.path.edgeIds.join('>')}`,
    nodes: pathNodes,
    edges: pathEdges,
    text: renderPath(pathNodes, pathEdges),
    scores: { final: round(value) },
    value,
    reason,
    depth: step.depth,
  };
  return { candidate, mentioned: touched > 0 || bothEndsNamed };
}

type Flow = 'downstream' | 'upstream' | undefined;

/**
 * Where a hop leads in terms of change: downstream to what a change reaches (what the node
 * `affects`, or what depends on it), upstream to what the node needs or is changed by (what it
 * depends on, or what affects it); other relations have no direction of change.
 */
function flowOf(edge: EdgeRecord, forward: boolean): Flow {
  if (EFFECT_RELATIONS.includes(edge.relation)) return forward ? 'downstream' : 'upstream';
  if (DEPENDENCY_RELATIONS.includes(edge.relation)) return forward ? 'upstream' : 'downstream';
  return undefined;
}

/**
 * Why a path is not a chain, or undefined when it is: it turns around, following a change
 * downstream and then upstream, or the reverse ("the migration affects billing" then "billing
 * depends on Postgres": Postgres is not affected by the migration, it is billing's dependency).
 * Such a path neither answers what the start node reaches nor what it needs.
 */
export function turnAgainstFlow(nodes: NodeRecord[], edges: EdgeRecord[]): string | undefined {
  let previous: Flow;
  for (const [i, edge] of edges.entries()) {
    const flow = flowOf(edge, edge.from === nodes[i]!.id);
    if (previous !== undefined && flow !== undefined && flow !== previous)
      return `turns from ${previous} to ${flow} at ${nodes[i]!.name}, so it does not chain from ${nodes[0]!.name}`;
    previous = flow ?? previous;
  }
  return undefined;
}

/** `auth —depends_on→ gRPC API ←owns— platform team` */
export function renderPath(nodes: NodeRecord[], edges: EdgeRecord[]): string {
  let out = nodes[0]!.name;
  edges.forEach((edge, i) => {
    const from = nodes[i]!;
    const to = nodes[i + 1]!;
    out += edge.from === from.id ? ` —${edge.relation}→ ${to.name}` : ` ←${edge.relation}— ${to.name}`;
  });
  return escapeMemoryText(out);
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
