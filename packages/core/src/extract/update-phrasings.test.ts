import { describe, expect, it } from 'vitest';
import { extractedTurns } from '../test/extracted-turns.ts';

const read = (turns: string[]) => extractedTurns(turns);

describe('a value stated with a verb, then changed', () => {
  it('reads "costs" as the price, so a later "price is now" and a correction update the same key', async () => {
    expect(
      await read([
        'The Starter plan costs $9 per month.',
        'The Starter plan price changed to $12 per month.',
        'Actually the Starter plan costs $11 per month.',
      ]),
    ).toEqual([
      ['statement', 'Starter plan', 'price', '$9 per month'],
      ['correction', 'Starter plan', 'price', '$12 per month'],
      ['correction', 'Starter plan', 'price', '$11 per month'],
    ]);
  });

  it('reads a share or an amount a verb asks for as the thing it is for', async () => {
    expect(
      await read([
        'Borealis Tools requires a 30% deposit.',
        'Correction: Borealis Tools requires a 25% deposit, not 30%.',
      ]),
    ).toEqual([
      ['statement', 'Borealis Tools', 'deposit', '30%'],
      ['correction', 'Borealis Tools', 'deposit', '25%'],
    ]);
  });

  it('takes ", not X" after any verb as a correction, not a negation', async () => {
    expect(await read(['Correction: the Lyon depot has 42 forklifts, not 40.'])).toEqual([
      ['correction', 'Lyon depot', 'forklifts', '42 forklifts'],
    ]);
  });

  it('reads "has a <attribute> of <value>"', async () => {
    expect(await read(['Tallis Logistics has a lead time of 12 days.'])).toEqual([
      ['statement', 'Tallis Logistics', 'lead time', '12 days'],
    ]);
  });

  it('names the thing when the key ends in a kind of thing: "the Vega maintenance contract"', async () => {
    expect(await read(['The Vega maintenance contract costs $3,000 a year.'])).toEqual([
      ['statement', 'Vega maintenance contract', 'price', '$3,000 a year'],
    ]);
  });
});

describe('values without what surrounds them', () => {
  it('keeps a range without its "from"', async () => {
    expect(await read(['The Oslo workshop is from 3 to 6 June.'])).toEqual([
      ['statement', 'Oslo workshop', 'date', '3 to 6 June'],
    ]);
  });

  it('drops what led to an amount', async () => {
    expect(await read(["Initech's licence fee changed to $80,000 after the renewal."])).toEqual([
      ['correction', 'Initech', 'licence fee', '$80,000'],
    ]);
  });

  it('keeps a place out of the key: "Bay 9 at the Leipzig depot"', async () => {
    const facts = await read([
      'Bay 9 at the Leipzig depot is out of use.',
      'Printer P-12 in the Vienna office is out of toner.',
    ]);
    expect(facts.filter(([, , key]) => /^(?:at|in|with)\s/.test(key))).toEqual([]);
  });
});

describe('a change in other phrasings', () => {
  it('reads a lead saying since when a value holds as a change of it', async () => {
    expect(
      await read([
        'The lead time for Orbis Paper is 45 days.',
        'Since Monday, the lead time for Orbis Paper is 30 days.',
        'Starting next month, the lead time for Orbis Paper will be 25 days.',
        'Going forward, the lead time for Orbis Paper is 20 days.',
      ]),
    ).toEqual([
      ['statement', 'Orbis Paper', 'lead time', '45 days'],
      ['correction', 'Orbis Paper', 'lead time', '30 days'],
      ['correction', 'Orbis Paper', 'lead time', '25 days'],
      ['correction', 'Orbis Paper', 'lead time', '20 days'],
    ]);
  });

  it('reads "update:" and verbs of change ("slipped", "doubled", "bumped … up") as changes', async () => {
    expect(
      await read([
        'The Atlas project deadline is 14 April.',
        'The Atlas project deadline slipped to 2 May.',
        'Our budget is $40,000.',
        'They bumped our budget up to $45,000.',
        'Update: our budget is $50,000.',
        'The API rate limit is 600 requests per minute.',
        'The API rate limit was doubled to 1,200 requests per minute.',
      ]),
    ).toEqual([
      ['statement', 'Atlas project', 'deadline', '14 April'],
      ['correction', 'Atlas project', 'deadline', '2 May'],
      ['statement', 'we', 'budget', '$40,000'],
      ['correction', 'we', 'budget', '$45,000'],
      ['correction', 'we', 'budget', '$50,000'],
      ['statement', 'API', 'rate limit', '600 requests per minute'],
      ['correction', 'API', 'rate limit', '1,200 requests per minute'],
    ]);
  });

  it('reads a plural name\'s possessive and a passive said with "now"', async () => {
    expect(
      await read([
        "Kestrel Metals' payment terms are net 30.",
        'The Madrid hub is now managed by Pedro Alves.',
      ]),
    ).toEqual([
      ['statement', 'Kestrel Metals', 'payment terms', 'net 30'],
      ['correction', 'Madrid hub', 'manager', 'Pedro Alves'],
    ]);
  });
});

describe('a change from one value to another', () => {
  it('reads "from A to B" as a change to B, whoever or whatever opens the sentence', async () => {
    expect(
      await read([
        'The lead time for Orbis Paper went from 45 days to 30 days.',
        'We cut the lead time for Orbis Paper from 30 days to 25 days.',
        'Our budget has gone up from $40,000 to $45,000.',
      ]),
    ).toEqual([
      ['correction', 'Orbis Paper', 'lead time', '30 days'],
      ['correction', 'Orbis Paper', 'lead time', '25 days'],
      ['correction', 'we', 'budget', '$45,000'],
    ]);
  });
});
