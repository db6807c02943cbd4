import { describe, expect, it } from 'vitest';
import { extractedTurns } from '../test/extracted-turns.ts';

const read = (turns: string[]) => extractedTurns(turns);

describe('the speaker introducing themselves', () => {
  it.each([
    [
      "I'm Priya, the head chef.",
      [
        ['statement', 'speaker', 'name', 'Priya'],
        ['statement', 'speaker', 'job title', 'head chef'],
      ],
    ],
    [
      "I'm Tomas and I'm a pharmacist.",
      [
        ['statement', 'speaker', 'name', 'Tomas'],
        ['statement', 'speaker', 'job title', 'pharmacist'],
      ],
    ],
    ["I'm Hugo, I look after the night shift.", [['statement', 'speaker', 'name', 'Hugo']]],
    ["I'm vegan at the moment.", [['statement', 'speaker', 'diet', 'vegan']]],
    ["I'm a pescatarian who eats shellfish.", [['statement', 'speaker', 'diet', 'pescatarian']]],
    ['My pronouns are they/them.', [['statement', 'speaker', 'pronouns', 'they/them']]],
    ['I prefer a quiet room.', [['statement', 'speaker', 'room preference', 'a quiet room']]],
    ['I prefer Hilton hotels.', [['statement', 'speaker', 'hotel preference', 'Hilton hotels']]],
  ])('%s', async (text, expected) => {
    expect(await read([text])).toEqual(expected);
  });

  it('does not take an adjective for a name', async () => {
    expect(await read(["I'm Italian.", "I'm Hungry."])).toEqual([]);
  });
});

describe('changes of mind and stated changes replace the value before', () => {
  it('reads "changed my mind" as a correction and drops "after all"', async () => {
    expect(await read(['I prefer red wine.', 'I changed my mind, I prefer white wine after all.'])).toEqual([
      ['statement', 'speaker', 'wine preference', 'red wine'],
      ['correction', 'speaker', 'wine preference', 'white wine'],
    ]);
  });

  it('reads "now" and "raised to" as changes, so each replaces the last', async () => {
    expect(
      await read([
        'The Zeta queue limit is 500 jobs.',
        'The Zeta queue limit is now 700 jobs.',
        'The Zeta queue limit was raised to 900 jobs.',
      ]),
    ).toEqual([
      ['statement', 'Zeta queue', 'limit', '500 jobs'],
      ['correction', 'Zeta queue', 'limit', '700 jobs'],
      ['correction', 'Zeta queue', 'limit', '900 jobs'],
    ]);
  });
});

describe('more ways to state a new value', () => {
  it('reads a comma splice after a correction: "no, it is X, my <attribute> is X"', async () => {
    expect(await read(['My home gym is FitBox.', "No, it's IronWorks, my home gym is IronWorks."])).toEqual([
      ['statement', 'speaker', 'home gym', 'FitBox'],
      ['correction', 'speaker', 'home gym', 'IronWorks'],
    ]);
  });

  it('reads past a leading "after the …" to the statement', async () => {
    expect(await read(['After the refit the Gdansk depot has 80 loading bays.'])).toEqual([
      ['statement', 'Gdansk depot', 'loading bays', '80 loading bays'],
    ]);
  });

  it('reads the plan a customer is on, and the plan it moved to', async () => {
    expect(
      await read(['Brightline Media is on the starter plan.', 'Brightline Media moved to the growth plan.']),
    ).toEqual([
      ['statement', 'Brightline Media', 'plan', 'starter plan'],
      ['correction', 'Brightline Media', 'plan', 'growth plan'],
    ]);
  });

  it('reads "has a new <attribute>: <value>" as a change', async () => {
    expect(await read(['Northwind Labs has a new billing contact: Omar Haddad.'])).toEqual([
      ['correction', 'Northwind Labs', 'billing contact', 'Omar Haddad'],
    ]);
  });

  it('keys a personal account by the company it is held with', async () => {
    expect(await read(['My member number with Lufthansa is LH-55102.'])).toEqual([
      ['statement', 'speaker', 'lufthansa member number', 'LH-55102'],
    ]);
  });
});
