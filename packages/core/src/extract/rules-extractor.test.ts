import { describe, expect, it } from 'vitest';
import type { Extraction, TurnMessage } from '../ports/ports.ts';
import { rulesExtractor } from './rules-extractor.ts';

const extractor = rulesExtractor();

async function extract(
  content: string,
  options: { context?: string[]; known?: string[] } = {},
): Promise<Extraction> {
  const context: TurnMessage[] = (options.context ?? []).map((text, i) => ({
    id: `c${i}`,
    role: 'user',
    content: text,
    at: i,
  }));
  return extractor.extract({
    messages: [{ id: 'm1', role: 'user', content, at: 100 }],
    context,
    knownEntities: options.known ?? [],
  });
}

type FactRow = [entityType: string, entity: string, key: string, value: string, kind: string];

const factOf = (e: Extraction): FactRow[] =>
  e.facts.map((f) => [f.entityType, f.entity, f.key, String(f.value), f.kind] as FactRow);

describe('rules extractor: statements it reads', () => {
  const cases: Array<[string, FactRow[]]> = [
    ["Supplier X's lead time is 45 days.", [['entity', 'Supplier X', 'lead time', '45 days', 'statement']]],
    [
      'The lead time for Supplier X is 45 days.',
      [['entity', 'Supplier X', 'lead time', '45 days', 'statement']],
    ],
    ['Supplier X lead time is 45 days', [['entity', 'Supplier X', 'lead time', '45 days', 'statement']]],
    [
      'The payment terms of Acme Corp are net 60.',
      [['entity', 'Acme Corp', 'payment terms', 'net 60', 'statement']],
    ],
    ['Our budget is $4,200.', [['organization', 'we', 'budget', '$4,200', 'statement']]],
    ['My name is Maria Lopez.', [['user', 'speaker', 'name', 'Maria Lopez', 'statement']]],
    ['Call me Sam.', [['user', 'speaker', 'name', 'Sam', 'statement']]],
    ['My email is maria@example.com', [['user', 'speaker', 'email', 'maria@example.com', 'statement']]],
    ['Maria is our account manager.', [['organization', 'we', 'account manager', 'Maria', 'statement']]],
    ['Dr. Lee is my dentist.', [['user', 'speaker', 'dentist', 'Dr. Lee', 'statement']]],
    ['Contractors are paid net 30.', [['entity', 'Contractors', 'payment terms', 'net 30', 'statement']]],
    [
      'Freelancers are paid $85 per hour.',
      [['entity', 'Freelancers', 'pay rate', '$85 per hour', 'statement']],
    ],
    ["I'd prefer email for updates.", [['user', 'speaker', 'preference for updates', 'email', 'statement']]],
    [
      'I prefer window seats over aisle seats.',
      [['user', 'speaker', 'seat preference', 'window seats', 'statement']],
    ],
    [
      "Supplier X's lead time changed to 30 days.",
      [['entity', 'Supplier X', 'lead time', '30 days', 'correction']],
    ],
    [
      'FYI, remember that Supplier X’s minimum order is 500 units.',
      [['entity', 'Supplier X', 'minimum order', '500 units', 'statement']],
    ],
    [
      "Acme Corp's payment terms are net 60 and Acme Corp's lead time is 2 weeks.",
      [
        ['entity', 'Acme Corp', 'payment terms', 'net 60', 'statement'],
        ['entity', 'Acme Corp', 'lead time', '2 weeks', 'statement'],
      ],
    ],
    ['Our office is in Berlin.', [['organization', 'we', 'office', 'Berlin', 'statement']]],
    [
      "Supplier X's lead time is 45 days and their payment terms are net 60.",
      [
        ['entity', 'Supplier X', 'lead time', '45 days', 'statement'],
        ['entity', 'Supplier X', 'payment terms', 'net 60', 'statement'],
      ],
    ],
  ];

  it.each(cases)('%s', async (text, expected) => {
    expect(factOf(await extract(text))).toEqual(expected);
  });

  it('keeps values exactly as written', async () => {
    const e = await extract("Globex's deposit is $4,200.50 and Globex's discount is 12.5%.");
    expect(e.facts.map((f) => f.value)).toEqual(['$4,200.50', '12.5%']);
  });

  it('gives explicit statements a confidence at or above the default review threshold', async () => {
    const e = await extract("Supplier X's lead time is 45 days.");
    expect(e.facts[0]!.confidence).toBeGreaterThanOrEqual(0.75);
    expect(e.facts[0]!.messageId).toBe('m1');
    expect(e.facts[0]!.evidence).toBe("Supplier X's lead time is 45 days.");
  });
});

describe('rules extractor: corrections', () => {
  const cases: Array<[string, string[], FactRow[]]> = [
    [
      'No, the lead time is actually 30 days, not 45.',
      ["Supplier X's lead time is 45 days."],
      [['entity', 'Supplier X', 'lead time', '30 days', 'correction']],
    ],
    [
      "Correction: Supplier X's payment terms are net 60.",
      [],
      [['entity', 'Supplier X', 'payment terms', 'net 60', 'correction']],
    ],
    ['Actually, our budget is $5,000.', [], [['organization', 'we', 'budget', '$5,000', 'correction']]],
    [
      'No. The lead time for Supplier X is 30 days.',
      [],
      [['entity', 'Supplier X', 'lead time', '30 days', 'correction']],
    ],
    [
      'The lead time for Supplier X is 30 days instead of 45.',
      [],
      [['entity', 'Supplier X', 'lead time', '30 days', 'correction']],
    ],
  ];

  it.each(cases)('%s', async (text, context, expected) => {
    expect(factOf(await extract(text, { context }))).toEqual(expected);
  });

  it('leaves the owner empty for the engine to resolve when no context names it', async () => {
    expect(factOf(await extract('No, the lead time is actually 30 days, not 45.'))).toEqual([
      ['entity', '', 'lead time', '30 days', 'correction'],
    ]);
  });

  it('lets a later sentence of the same message win', async () => {
    const e = await extract(
      "Supplier X's lead time is 45 days. No, sorry, Supplier X's lead time is 40 days.",
    );
    expect(factOf(e)).toEqual([['entity', 'Supplier X', 'lead time', '40 days', 'correction']]);
  });
});

describe('rules extractor: hypotheticals and hedges never come back as confident statements', () => {
  const hypotheticals: Array<[string, FactRow[]]> = [
    ['What if we extended terms to 90 days?', [['organization', 'we', 'terms', '90 days', 'hypothetical']]],
    ['Suppose the lead time was 60 days.', [['entity', '', 'lead time', '60 days', 'hypothetical']]],
    [
      "What if we raised Supplier X's minimum order to 800 units?",
      [['entity', 'Supplier X', 'minimum order', '800 units', 'hypothetical']],
    ],
  ];
  it.each(hypotheticals)('%s', async (text, expected) => {
    const e = await extract(text);
    expect(factOf(e)).toEqual(expected);
    for (const fact of e.facts) expect(fact.confidence).toBeLessThan(0.75);
  });

  const hedged = [
    'I think the lead time is 60 days.',
    "Apparently Acme's lead time is 3 weeks.",
    "Maybe Supplier X's lead time is 50 days.",
    "He said Supplier X's price is $300.",
  ];
  it.each(hedged)('%s is below the review threshold', async (text) => {
    const e = await extract(text);
    expect(e.facts.length).toBeGreaterThan(0);
    for (const fact of e.facts) expect(fact.confidence).toBeLessThan(0.75);
  });

  it('marks what-if relations hypothetical and creates no nodes for them', async () => {
    const e = await extract('What if we replaced REST with gRPC?');
    expect(e.relations).toHaveLength(1);
    expect(e.relations[0]).toMatchObject({ relation: 'replaces', kind: 'hypothetical' });
    expect(e.relations[0]!.confidence).toBeLessThan(0.75);
    expect(e.entities).toEqual([]);
  });
});

describe('rules extractor: negative cases yield nothing', () => {
  const negatives = [
    'What is the lead time?',
    'Is the lead time 45 days?',
    'How long is the lead time for Supplier X?',
    "What's our budget?",
    'Could the lead time be 60 days?',
    'Would the lead time be 60 days if we paid upfront?',
    "Supplier X's lead time might be 50 days.",
    'If the price is $500 we will buy it.',
    'The lead time is not 45 days.',
    "Supplier X's lead time isn't 45 days.",
    'Hi! How are you?',
    'Thanks, that is great!',
    'ok',
    'The weather is nice today.',
    'Everything is fine.',
    'It is 45 days.',
    'This is our main office.',
    'The problem is that billing is slow.',
    'The plan is to ship on Friday.',
    'Lead time is 45 days',
    'The report uses a lot of jargon.',
    'That is a good question.',
    'There are 3 options.',
    'We might switch to gRPC.',
    'Billing no longer depends on REST.',
    "Auth doesn't depend on the service API.",
    'The answer is 42.',
    'My point is that we need more time.',
    'Our goal is to grow.',
    'Their lead time is 45 days.',
    'The client SDK is built on the service API.',
  ];
  it.each(negatives)('%s', async (text) => {
    const e = await extract(text);
    const confident = e.facts.filter((f) => f.kind !== 'hypothetical' && f.confidence >= 0.75);
    // "X is built on Y" is a (correct) `uses` relation, not a fact.
    const statedRelations = e.relations.filter((r) => r.kind === 'statement' && r.relation !== 'uses');
    expect(confident).toEqual([]);
    expect(statedRelations).toEqual([]);
  });

  it('does not read assistant turns by default', async () => {
    const e = await extractor.extract({
      messages: [{ id: 'a1', role: 'assistant', content: "Supplier X's lead time is 45 days.", at: 0 }],
      context: [],
      knownEntities: [],
    });
    expect(e).toEqual({ facts: [], entities: [], relations: [] });
  });

  it('does not extract from context messages', async () => {
    const e = await extract('Thanks!', { context: ["Supplier X's lead time is 45 days."] });
    expect(e).toEqual({ facts: [], entities: [], relations: [] });
  });
});

describe('rules extractor: relations and entities', () => {
  type RelationRow = [from: string, relation: string, to: string];
  const relationsOf = (e: Extraction): RelationRow[] =>
    e.relations
      .filter((r) => r.kind === 'statement')
      .map((r) => [r.from.name, r.relation, r.to.name] as RelationRow);

  const cases: Array<[string, RelationRow[]]> = [
    [
      'Auth, billing and the client SDK depend on the service API.',
      [
        ['Auth', 'depends_on', 'service API'],
        ['billing', 'depends_on', 'service API'],
        ['client SDK', 'depends_on', 'service API'],
      ],
    ],
    ['The checkout service relies on Stripe.', [['checkout service', 'depends_on', 'Stripe']]],
    ['The gRPC migration affects the service API.', [['gRPC migration', 'affects', 'service API']]],
    ['The billing service uses Postgres for storage.', [['billing service', 'uses', 'Postgres']]],
    ['We decided to use gRPC instead of REST for internal services.', [['gRPC', 'replaces', 'REST']]],
    ["We're going with Postgres instead of MySQL.", [['Postgres', 'replaces', 'MySQL']]],
    ['We migrated the API from REST to gRPC.', [['gRPC', 'replaces', 'REST']]],
    ['We replaced Jenkins with GitHub Actions.', [['GitHub Actions', 'replaces', 'Jenkins']]],
    ['Kafka replaces RabbitMQ.', [['Kafka', 'replaces', 'RabbitMQ']]],
  ];
  it.each(cases)('%s', async (text, expected) => {
    expect(relationsOf(await extract(text))).toEqual(expected);
  });

  it('types nodes by their names', async () => {
    const e = await extract('The gRPC migration affects the service API.');
    expect(e.entities.map((n) => [n.name, n.type])).toEqual([
      ['gRPC migration', 'decision'],
      ['service API', 'component'],
    ]);
  });

  it('records decisions as decision nodes', async () => {
    const e = await extract('We decided to ship on May 3.');
    expect(e.entities).toEqual([{ name: 'ship on May 3', type: 'decision', messageId: 'm1' }]);
  });

  it('turns named fact owners into entities', async () => {
    const e = await extract('The lead time for Supplier X is 45 days.');
    expect(e.entities).toEqual([{ name: 'Supplier X', type: 'entity', messageId: 'm1' }]);
  });

  it('uses known entity names to split "<entity> <attribute>"', async () => {
    const e = await extract('acme widgets lead time is 3 weeks', { known: ['Acme Widgets'] });
    expect(factOf(e)).toEqual([['entity', 'acme widgets', 'lead time', '3 weeks', 'statement']]);
  });
});
