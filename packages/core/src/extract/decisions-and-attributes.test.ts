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

describe('rules extractor: questions, what-ifs, plans, hedges and quotes', () => {
  type Proposal = [entity: string, key: string, value: string];
  const proposalsOf = (e: Extraction): Proposal[] =>
    e.facts.filter((f) => f.kind === 'hypothetical').map((f) => [f.entity, f.key, String(f.value)]);

  const cases: Array<[string, Proposal[]]> = [
    ['Is the Lisbon offsite budget $40,000?', [['Lisbon offsite', 'budget', '$40,000']]],
    [
      'Should the API rate limit be 2,000 requests per minute?',
      [['API', 'rate limit', '2,000 requests per minute']],
    ],
    ['We plan to move the all-hands to Thursdays next quarter.', [['', 'all-hands', 'Thursdays']]],
    ['We might switch the event bus to Kafka next year.', [['', 'event bus', 'Kafka']]],
    ['We are thinking about a 15% deposit for Kestrel Metals.', [['Kestrel Metals', 'deposit', '15%']]],
    [
      'We are considering Northwind Logistics for UK shipping.',
      [['UK shipping', 'decision', 'Northwind Logistics']],
    ],
    [
      'I think the Helix migration deadline is 1 May, but I am not sure.',
      [['Helix migration', 'deadline', '1 May']],
    ],
    ['The client asked: "can the SLA be 99.99%?"', [['', 'sla', '99.99%']]],
  ];
  it.each(cases)('%s', async (text, expected) => {
    const e = await extract(text);
    expect(proposalsOf(e)).toEqual(expected);
    expect(factsOf(e)).toEqual([]);
  });

  it('carries the sentence it came from', async () => {
    const text = 'Is the Lisbon offsite budget $40,000?';
    expect((await extract(text)).facts[0]?.evidence).toBe(text);
  });

  it('proposes nothing for requests and questions without a value', async () => {
    for (const text of [
      'Can you book a table for two?',
      'Who is on call this weekend?',
      'What time is it in Tokyo right now?',
      'Could you check the weather for tomorrow?',
    ]) {
      expect((await extract(text)).facts).toEqual([]);
    }
  });
});

describe('rules extractor: attributes of named things', () => {
  const cases: Array<[string, Row[]]> = [
    ['The Atlas project deadline is 14 April.', [['Atlas project', 'deadline', '14 April']]],
    [
      'The Zenith maintenance window is Sundays from 1 to 3 am.',
      [['Zenith', 'maintenance window', 'Sundays from 1 to 3 am']],
    ],
    ['The payments service SLA is 99.95%.', [['payments service', 'sla', '99.95%']]],
    ['The engineering offsite budget is $18,000.', [['engineering offsite', 'budget', '$18,000']]],
    ['The Sydney team standup is at 8:45 am.', [['Sydney team standup', 'time', '8:45 am']]],
    [
      'The API rate limit was raised to 1,000 requests per minute.',
      [['API', 'rate limit', '1,000 requests per minute']],
    ],
    // Pages, queues, desks and lines are things with attributes of their own.
    ['The checkout page conversion rate is 3.4%.', [['checkout page', 'conversion rate', '3.4%']]],
    ['The help desk response time is 2 hours.', [['help desk', 'response time', '2 hours']]],
    // A bare compound names an attribute without its owner.
    ['The meeting room is Cedar.', [['', 'meeting room', 'Cedar']]],
    // Attributes stated with a verb, keyed by it (or by its noun: opening time, headcount).
    ['The Rotterdam depot opens at 6 am.', [['Rotterdam depot', 'opening time', '6 am']]],
    ['The Vega warehouse closes at 10 pm.', [['Vega warehouse', 'closing time', '10 pm']]],
    ['The Lisbon office has 45 people.', [['Lisbon office', 'headcount', '45 people']]],
    ['The Berlin store employs 32 people.', [['Berlin store', 'headcount', '32 people']]],
    ['The Madrid hub is managed by Sofia Ruiz.', [['Madrid hub', 'manager', 'Sofia Ruiz']]],
    ['Invoice INV-2240 was paid on 2 August.', [['Invoice INV-2240', 'paid on', '2 August']]],
    [
      'The Leeds warehouse has 1,200 pallet spaces.',
      [['Leeds warehouse', 'pallet spaces', '1,200 pallet spaces']],
    ],
    ['The free tier includes 10 GB of storage.', [['free tier', 'storage', '10 GB']]],
    [
      'Delta Print now delivers within 3 business days.',
      [['Delta Print', 'delivers within', '3 business days']],
    ],
    [
      "Vendor Orion's support contract renews on the first of each quarter.",
      [['Orion', 'support contract renews', 'the first of each quarter']],
    ],
    // An attribute opening the sentence, its owner after "for", or a name after "at".
    ['Log retention for the audit service is 400 days.', [['audit service', 'log retention', '400 days']]],
    ['Check-in at the Hotel Miramar is from 3 pm.', [['Hotel Miramar', 'check-in', 'from 3 pm']]],
    ['The meeting at the office is at 3 pm.', []],
    // Events: their timing.
    ['The board meeting is on 12 June.', [['board meeting', 'date', '12 June']]],
    ['The fire drill is every six months.', [['fire drill', 'schedule', 'every six months']]],
    ['The meeting is at 4 pm.', [['', 'meeting', '4 pm']]],
    // A verb without a quantity states no attribute.
    ['The platform team runs the deploys.', []],
    ['Ana handles the invoices.', []],
  ];
  it.each(cases)('%s', async (text, expected) => {
    expect(factsOf(await extract(text))).toEqual(expected);
  });
});
