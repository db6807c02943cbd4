import { describe, expect, it } from 'vitest';
import type { Extraction } from '../ports/ports.ts';
import { rulesExtractor } from './rules-extractor.ts';

const extractor = rulesExtractor();

function extract(content: string): Promise<Extraction> {
  return extractor.extract({
    messages: [{ id: 'm1', role: 'user', content, at: 1 }],
    context: [],
    knownEntities: [],
  });
}

type Row = [entity: string, key: string, value: string];
const factsOf = (e: Extraction): Row[] =>
  e.facts.filter((f) => f.kind !== 'hypothetical').map((f) => [f.entity, f.key, String(f.value)]);
const edgesOf = (e: Extraction): Row[] =>
  e.relations.filter((r) => r.kind === 'statement').map((r) => [r.from.name, r.relation, r.to.name]);

describe('rules extractor: decisions', () => {
  const cases: Array<[string, Row[]]> = [
    [
      'We chose NATS over Kafka for the event bus because it is simpler to run.',
      [
        ['event bus', 'decision', 'NATS'],
        ['event bus', 'decision reason', 'it is simpler to run'],
      ],
    ],
    [
      'For the design system we went with Tailwind, since it keeps the bundle small.',
      [
        ['design system', 'decision', 'Tailwind'],
        ['design system', 'decision reason', 'it keeps the bundle small'],
      ],
    ],
    [
      'We went with Umbrella Health as the pilot customer because they signed first.',
      [
        ['pilot customer', 'decision', 'Umbrella Health'],
        ['pilot customer', 'decision reason', 'they signed first'],
      ],
    ],
    [
      'The team picked Vitest over Jest for unit tests to cut build time.',
      [
        ['unit tests', 'decision', 'Vitest'],
        ['unit tests', 'decision reason', 'to cut build time'],
      ],
    ],
    ['We selected Acme as the supplier for the sensor boards.', [['sensor boards', 'decision', 'Acme']]],
  ];
  it.each(cases)('%s', async (text, expected) => {
    expect(factsOf(await extract(text))).toEqual(expected);
  });

  it('links a component to what was chosen for it, and the choice to what it was chosen over', async () => {
    const e = await extract('We chose NATS over Kafka for the event bus because it is simpler to run.');
    expect(edgesOf(e)).toEqual([
      ['event bus', 'uses', 'NATS'],
      ['NATS', 'chosen_over', 'Kafka'],
    ]);
  });

  it('adds no dependency edge when the purpose is not a component', async () => {
    const e = await extract('We decided on Lisbon for the offsite because flights are cheaper.');
    expect(edgesOf(e)).toEqual([]);
  });

  it('reads no decision without a purpose, in a question or in a what-if', async () => {
    for (const text of [
      'We chose to wait.',
      'Did we choose NATS for the event bus?',
      'What if we chose NATS for the event bus?',
    ]) {
      expect(factsOf(await extract(text))).toEqual([]);
    }
  });
});
