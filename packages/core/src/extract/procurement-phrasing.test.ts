import { describe, expect, it } from 'vitest';
import type { Extraction } from '../ports/ports.ts';
import { rulesExtractor } from './rules-extractor.ts';

/**
 * The rules extractor on the way procurement and platform people actually talk: acronyms,
 * threshold rules, quotes, "we pay …", owners after "from"/"by", values followed by a trailing
 * clause, migrations named "A to B", and quantifiers before a verb. Each group has negative cases:
 * a wrong fact costs more than a missed one.
 */

const extractor = rulesExtractor();

async function extract(content: string, known: string[] = []): Promise<Extraction> {
  return extractor.extract({
    messages: [{ id: 'm1', role: 'user', content, at: 0 }],
    context: [],
    knownEntities: known,
  });
}

type FactRow = [entityType: string, entity: string, key: string, value: string];
const factsOf = (e: Extraction): FactRow[] =>
  e.facts
    .filter((f) => f.kind !== 'hypothetical' && f.confidence >= 0.75)
    .map((f) => [f.entityType, f.entity, f.key, String(f.value)] as FactRow);

type RelationRow = [from: string, relation: string, to: string];
const relationsOf = (e: Extraction): RelationRow[] =>
  e.relations
    .filter((r) => r.kind === 'statement' && r.confidence >= 0.75)
    .map((r) => [r.from.name, r.relation, r.to.name] as RelationRow);

function table(rows: Array<[string, FactRow[]]>) {
  it.each(rows)('%s', async (text, expected) => {
    expect(factsOf(await extract(text))).toEqual(expected);
  });
}

describe('acronyms are names, not pronouns', () => {
  table([
    [
      'IT equipment vendors are paid net 30.',
      [['entity', 'IT equipment vendors', 'payment terms', 'net 30']],
    ],
    ["IT's budget is $50,000.", [['entity', 'IT', 'budget', '$50,000']]],
    ['The budget for HR is $20,000.', [['entity', 'HR', 'budget', '$20,000']]],
    [
      'AWS quoted $12,000 for the reserved instances.',
      [['entity', 'AWS', 'quote for the reserved instances', '$12,000']],
    ],
    ['US suppliers are paid net 45.', [['entity', 'US suppliers', 'payment terms', 'net 45']]],
    // Pronouns stay pronouns, and text in capitals only gives no acronym signal.
    ['It is paid net 30.', []],
    ["It's paid net 30.", []],
    ['They are paid net 30.', []],
    ['IT IS PAID NET 30.', []],
    ['THEY ARE PAID NET 30.', []],
    ['Its lead time is 45 days.', []],
  ]);

  it('reads an acronym as a node name in relations', async () => {
    expect(relationsOf(await extract('QA depends on the staging cluster.'))).toEqual([
      ['QA', 'depends_on', 'staging cluster'],
    ]);
    expect(relationsOf(await extract('It depends on the staging cluster.'))).toEqual([]);
  });
});

describe('threshold rules become facts of what they govern', () => {
  table([
    [
      'Approvals above 50,000 USD need sign-off.',
      [['entity', 'Approvals', 'sign-off threshold', 'above 50,000 USD']],
    ],
    [
      'Orders over $10,000 require sign-off from the CFO.',
      [['entity', 'Orders', 'cfo sign-off threshold', 'over $10,000']],
    ],
    [
      'All purchases of more than $5,000 need three quotes.',
      [['entity', 'purchases', 'three quotes threshold', 'more than $5,000']],
    ],
    [
      'Approvals above 50,000 USD need sign-off, without exception.',
      [['entity', 'Approvals', 'sign-off threshold', 'above 50,000 USD']],
    ],
    [
      'Invoices over €2,500 need approval by a manager before payment.',
      [['entity', 'Invoices', 'manager approval threshold', 'over €2,500']],
    ],
    ['Anything above it needs sign-off from the CFO.', []],
    ['Anything above 50,000 USD needs sign-off.', []],
    ['Do approvals above 50,000 USD need sign-off?', []],
    ['Approvals above 50,000 USD might need sign-off.', []],
    ['Approvals above 50,000 USD do not need sign-off.', []],
    ['Orders above the limit need sign-off.', []],
    ['If approvals above 50,000 USD need sign-off, we wait.', []],
  ]);

  it('keys a new threshold for the same requirement the same way, so it supersedes', async () => {
    const [first] = factsOf(await extract('Approvals above 50,000 USD need sign-off.'));
    const [second] = factsOf(await extract('Approvals above 100,000 USD need sign-off.'));
    expect(second!.slice(0, 3)).toEqual(first!.slice(0, 3));
    expect(second![3]).toBe('above 100,000 USD');
  });
});

describe('quotes and "we pay …"', () => {
  table([
    [
      'Supplier X quoted $4,200 for the steel beams.',
      [['entity', 'Supplier X', 'quote for the steel beams', '$4,200']],
    ],
    ['Supplier X quoted us $4,200.', [['entity', 'Supplier X', 'quote', '$4,200']]],
    ['Globex has quoted €950 per tonne.', [['entity', 'Globex', 'quote', '€950 per tonne']]],
    ['Supplier X quoted $4,200 for 120 beams.', [['entity', 'Supplier X', 'quote', '$4,200 for 120 beams']]],
    [
      'We pay construction suppliers net 60.',
      [['entity', 'construction suppliers', 'payment terms', 'net 60']],
    ],
    ['We usually pay Supplier X upfront.', [['entity', 'Supplier X', 'payment terms', 'upfront']]],
    ['We pay freelancers $85 per hour.', [['entity', 'freelancers', 'pay rate', '$85 per hour']]],
    ['We pay invoices within 30 days.', [['organization', 'we', 'payment terms', 'within 30 days']]],
    [
      'Our construction suppliers are paid net 60.',
      [['entity', 'construction suppliers', 'payment terms', 'net 60']],
    ],
    [
      'Construction suppliers are all paid net 60.',
      [['entity', 'Construction suppliers', 'payment terms', 'net 60']],
    ],
    ['We pay them net 60.', []],
    ['We pay Supplier X $4,200.', []],
    ['We pay attention to quality.', []],
    ['He quoted $300.', []],
    ['The supplier quoted $4,200.', []],
    ['Supplier X quoted a long lead time.', []],
    ['We will pay Supplier X net 60 if they deliver early.', []],
    ["We don't pay construction suppliers upfront.", []],
  ]);

  it('reads payment what-ifs as hypothetical proposals, never as facts', async () => {
    for (const text of [
      'What if we paid IT equipment vendors net 45?',
      'What if hardware vendors were paid net 45?',
    ]) {
      const e = await extract(text);
      expect(e.facts.map((f) => [f.entity, f.key, f.value, f.kind])).toEqual([
        [
          text.includes('IT') ? 'IT equipment vendors' : 'hardware vendors',
          'payment terms',
          'net 45',
          'hypothetical',
        ],
      ]);
      expect(e.facts[0]!.confidence).toBeLessThan(0.75);
    }
  });

  it('gives the same key as "X\'s quote for … is …", so the two phrasings confirm one fact', async () => {
    const quoted = factsOf(await extract('Supplier X quoted $4,200 for the steel beams.'));
    const stated = factsOf(await extract("Supplier X's quote for the steel beams is $4,200."));
    expect(quoted).toEqual(stated);
  });
});

describe('the <attribute> from/for/of/by <Owner> is <value>', () => {
  table([
    ['The quote from Supplier X is $4,200.', [['entity', 'Supplier X', 'quote', '$4,200']]],
    [
      'The quote from Supplier X for the steel beams is $4,200.',
      [['entity', 'Supplier X', 'quote for the steel beams', '$4,200']],
    ],
    ['The invoice by Acme Corp is $1,150.', [['entity', 'Acme Corp', 'invoice', '$1,150']]],
    [
      'The cost of the steel beams for Supplier X is $4,200.',
      [['entity', 'Supplier X', 'cost of the steel beams', '$4,200']],
    ],
    ['The lead time for the supplier Acme is 4 weeks.', [['supplier', 'Acme', 'lead time', '4 weeks']]],
    ["Our supplier Acme's lead time is 4 weeks.", [['supplier', 'Acme', 'lead time', '4 weeks']]],
    ['The lead time for billing is 2 days.', [['entity', 'billing', 'lead time', '2 days']]],
    ['The email from Maria is urgent.', []],
    ['The email from Maria is dated 3 May.', []],
    ['The quote from the supplier is $4,200.', []],
    ['The quote from them is $4,200.', []],
  ]);
});

describe('values end where a trailing clause begins', () => {
  table([
    [
      'Hardware vendors are paid net 30, laptops and monitors included.',
      [['entity', 'Hardware vendors', 'payment terms', 'net 30']],
    ],
    [
      "Supplier X's lead time is 45 days, which is too long.",
      [['entity', 'Supplier X', 'lead time', '45 days']],
    ],
    [
      'Our approval limit is 50,000 USD, effective March.',
      [['organization', 'we', 'approval limit', '50,000 USD']],
    ],
    [
      "Supplier X's quote is $4,200, including delivery to site.",
      [['entity', 'Supplier X', 'quote', '$4,200']],
    ],
    // Never inside an amount, and never a comma that belongs to the value.
    [
      "Supplier X's quote is $4,200, excluding VAT.",
      [['entity', 'Supplier X', 'quote', '$4,200, excluding VAT']],
    ],
    ['Our office is in Berlin, Germany.', [['organization', 'we', 'office', 'Berlin, Germany']]],
    ["Globex's deposit is $1,234,567.", [['entity', 'Globex', 'deposit', '$1,234,567']]],
  ]);
});

describe('migrations named "A to B" are one node', () => {
  it('"the A to B migration" is the migration, and says B replaces A', async () => {
    const e = await extract('The REST to gRPC migration affects auth, billing and the client SDK.');
    expect(relationsOf(e)).toEqual([
      ['REST to gRPC migration', 'affects', 'auth'],
      ['REST to gRPC migration', 'affects', 'billing'],
      ['REST to gRPC migration', 'affects', 'client SDK'],
      ['gRPC', 'replaces', 'REST'],
    ]);
    const migration = e.entities.find((n) => n.name === 'REST to gRPC migration');
    expect(migration).toMatchObject({ type: 'decision' });
    expect(migration!.aliases).toContain('gRPC migration');
    expect(migration!.aliases).toContain('migration from REST to gRPC');
  });

  it('"the migration from A to B" names the same node', async () => {
    const e = await extract('The migration from REST to gRPC affects billing.');
    expect(relationsOf(e)).toEqual([
      ['migration from REST to gRPC', 'affects', 'billing'],
      ['gRPC', 'replaces', 'REST'],
    ]);
    expect(e.entities.find((n) => n.name === 'migration from REST to gRPC')!.aliases).toContain(
      'REST to gRPC migration',
    );
  });

  const notMigrations: Array<[string, RelationRow[]]> = [
    ['The 5 to 10 day delay affects billing.', []],
    ['What if the REST to gRPC migration affects billing?', []],
    ["The REST to gRPC migration doesn't affect billing.", []],
    ['The gRPC migration affects the service API.', [['gRPC migration', 'affects', 'service API']]],
  ];
  it.each(notMigrations)('%s', async (text, expected) => {
    expect(relationsOf(await extract(text))).toEqual(expected);
  });
});

describe('quantifiers and "our" are not part of names', () => {
  const cases: Array<[string, RelationRow[]]> = [
    [
      'Auth, billing and the client SDK all depend on the service API.',
      [
        ['Auth', 'depends_on', 'service API'],
        ['billing', 'depends_on', 'service API'],
        ['client SDK', 'depends_on', 'service API'],
      ],
    ],
    ['Billing also depends on Postgres.', [['Billing', 'depends_on', 'Postgres']]],
    [
      'Both auth and billing depend on Redis.',
      [
        ['auth', 'depends_on', 'Redis'],
        ['billing', 'depends_on', 'Redis'],
      ],
    ],
    ['Our billing service depends on Postgres.', [['billing service', 'depends_on', 'Postgres']]],
    [
      'Auth and billing each rely on the token service.',
      [
        ['Auth', 'depends_on', 'token service'],
        ['billing', 'depends_on', 'token service'],
      ],
    ],
  ];
  it.each(cases)('%s', async (text, expected) => {
    const e = await extract(text);
    expect(relationsOf(e)).toEqual(expected);
    expect(e.entities.map((n) => n.name).filter((n) => /\b(?:all|also|both|each|our)\b/i.test(n))).toEqual(
      [],
    );
  });
});
