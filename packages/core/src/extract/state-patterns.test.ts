import { describe, expect, it } from 'vitest';
import { clausesOf } from './clauses.ts';
import { factsFromClause } from './fact-patterns.ts';
import { relationsFromClause } from './relation-patterns.ts';

const ctx = { knownEntities: new Set<string>() };
const facts = (text: string) =>
  clausesOf(text).flatMap((c) => factsFromClause(c, ctx).map((f) => [f.entity, f.key, f.value]));
const edges = (text: string) =>
  clausesOf(text).flatMap((c) =>
    relationsFromClause(c, ctx).relations.map((r) => [r.from.name, r.relation, r.to.name]),
  );

describe('a named thing’s state, progress and due date', () => {
  it.each([
    ['Bay 9 at the Leipzig depot is out of use.', [['Bay 9', 'status', 'out of use']]],
    ['Test rig TR-2 is offline.', [['Test rig TR-2', 'status', 'offline']]],
    ['The Orion redesign is 40% complete.', [['Orion redesign', 'progress', '40% complete']]],
    ['The warehouse rebuild is 25 percent done.', [['warehouse rebuild', 'progress', '25 percent done']]],
    ['Order PO-118 is due on 2 May.', [['Order PO-118', 'due date', '2 May']]],
  ])('%s', (text, expected) => {
    expect(facts(text)).toEqual(expected);
  });

  it('leaves a state to the attribute a subject names', () => {
    expect(facts('The status of the Vega rollout is paused.')).not.toContainEqual([
      'status of the Vega rollout',
      'status',
      'paused',
    ]);
  });
});

describe('blocks', () => {
  it('reads "blocks" and "is blocked by" between named work', () => {
    expect(edges('The Vega audit blocks the Orion rollout.')).toEqual([
      ['Vega audit', 'blocks', 'Orion rollout'],
    ]);
    expect(edges('The Orion rollout is blocked by the Vega audit.')).toEqual([
      ['Vega audit', 'blocks', 'Orion rollout'],
    ]);
  });

  it('reads what skipping a piece of work blocks as that work blocking it, and no edge from a plain obstacle', () => {
    expect(edges('Skipping the Vega audit blocks the Orion rollout.')).toEqual([
      ['Vega audit', 'blocks', 'Orion rollout'],
    ]);
    expect(edges('The van is blocking the loading bay.')).toEqual([]);
  });
});
