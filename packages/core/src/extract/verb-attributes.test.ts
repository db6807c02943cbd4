import { describe, expect, it } from 'vitest';
import { factsAfter } from '../test/extracted-turns.ts';

const read = async (...turns: string[]) =>
  (await factsAfter(...turns)).map((f) => [f.entity, f.key, f.value, f.kind]);

describe('attributes a verb states', () => {
  it('reads what a vendor charges, keyed by what is priced when the sentence names it', async () => {
    expect(await read('Acme charges $50 per hour.')).toEqual([
      ['Acme', 'price', '$50 per hour', 'statement'],
    ]);
    expect(await read('Corvid Steel charges $900 per tonne of rebar.')).toEqual([
      ['Corvid Steel', 'rebar price', '$900 per tonne', 'statement'],
    ]);
    expect(await read('Acme charges a $50 fee.')).toEqual([['Acme', 'fee', '$50', 'statement']]);
  });

  it('reads how often a thing is done to us, without "us"', async () => {
    expect(await read('Apex Cloud bills us monthly.')).toEqual([
      ['Apex Cloud', 'billing frequency', 'monthly', 'statement'],
    ]);
    expect(await read('Tom calls us often.')).toEqual([]);
  });

  it('reads the date of a thing of its own, keyed by it', async () => {
    expect(await read('Initech renews its licence every 12 months.')).toEqual([
      ['Initech', 'licence renewal', 'every 12 months', 'statement'],
    ]);
    expect(await read('Globex reviews its pricing every January.')).toEqual([
      ['Globex', 'pricing review', 'every January', 'statement'],
    ]);
  });

  it('reads how many a room seats as its capacity', async () => {
    expect(await read('The Oak room seats 8 people.')).toEqual([
      ['Oak room', 'capacity', '8 people', 'statement'],
    ]);
  });

  it('reads "switched to doing" as the new statement of what is done', async () => {
    expect(
      await read('Apex Cloud bills us quarterly.', 'Apex Cloud switched to billing us monthly.'),
    ).toEqual([['Apex Cloud', 'billing frequency', 'monthly', 'correction']]);
    expect(await read('Acme switched to charging $60 per hour.')).toEqual([
      ['Acme', 'price', '$60 per hour', 'correction'],
    ]);
  });
});

describe('what we have with a named party', () => {
  it('is the named party’s attribute', async () => {
    expect(await read('Our account manager at Globex is Dana Reyes.')).toEqual([
      ['Globex', 'account manager', 'Dana Reyes', 'statement'],
    ]);
    expect(await read('Our discount with Acme is 5%.')).toEqual([['Acme', 'discount', '5%', 'statement']]);
    expect(await read('Our meeting with the team is at 3 pm.')).toEqual([
      ['we', 'meeting with the team', '3 pm', 'statement'],
    ]);
  });
});

describe('a change named before the statement', () => {
  it('makes the statement a change, with or without a comma', async () => {
    expect(
      await read('The Orion lead time is 20 days.', 'As of Friday the Orion lead time is 25 days.'),
    ).toEqual([['Orion', 'lead time', '25 days', 'correction']]);
    expect(
      await read('The Orion lead time is 20 days.', 'It changed again, the Orion lead time is 30 days.'),
    ).toEqual([['Orion', 'lead time', '30 days', 'correction']]);
  });
});

describe('a change said as the old value and the new one', () => {
  it('reads "no longer A; it is B" and "used to be A, now B" as B replacing A', async () => {
    const before = 'The Orion cutoff is 4 pm.';
    for (const change of [
      'The Orion cutoff is no longer 4 pm; it is 3 pm.',
      "The Orion cutoff is no longer 4 pm, it's now 3 pm.",
      'The Orion cutoff used to be 4 pm, now it is 3 pm.',
      'The Orion cutoff used to be 4 pm but is now 3 pm.',
    ]) {
      expect(await read(before, change)).toEqual([['Orion', 'cutoff', '3 pm', 'correction']]);
    }
  });

  it('reads nothing from a past value said without the one that holds now', async () => {
    expect(await read('The Orion cutoff used to be 4 pm, which was fine.')).toEqual([]);
  });
});
