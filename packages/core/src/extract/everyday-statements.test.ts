import { describe, expect, it } from 'vitest';
import { extractedTurns } from '../test/extracted-turns.ts';

const read = (turns: string[]) => extractedTurns(turns, 'entityType');

describe('everyday statements about the speaker', () => {
  it.each([
    [
      'My name is Ada and I live in Porto.',
      [
        ['user', 'speaker', 'name', 'Ada'],
        ['user', 'speaker', 'home city', 'Porto'],
      ],
    ],
    ["I'm vegetarian.", [['user', 'speaker', 'diet', 'vegetarian']]],
    ['I prefer aisle seats.', [['user', 'speaker', 'seat preference', 'aisle seats']]],
    [
      'I work as a data engineer at Lumen Labs.',
      [
        ['user', 'speaker', 'job title', 'data engineer'],
        ['user', 'speaker', 'employer', 'Lumen Labs'],
      ],
    ],
  ])('%s', async (text, expected) => {
    expect(await read([text])).toEqual(expected);
  });
});

describe('one key across phrasings', () => {
  it('reads the Berlin warehouse cutoff chain as one entity and key', async () => {
    const facts = await read([
      'The shipping cutoff for the Berlin warehouse is 4 pm.',
      'Correction: the Berlin warehouse shipping cutoff is 3 pm, not 4 pm.',
      'Actually it changed again, the Berlin warehouse cutoff is now 2:30 pm.',
    ]);
    expect(facts).toEqual([
      ['entity', 'Berlin warehouse', 'shipping cutoff', '4 pm'],
      ['entity', 'Berlin warehouse', 'shipping cutoff', '3 pm'],
      ['entity', 'Berlin warehouse', 'shipping cutoff', '2:30 pm'],
    ]);
  });
});

describe('a change stated as done', () => {
  it.each([
    [
      ['The board meeting is on 12 June.', 'We moved the board meeting to 19 June.'],
      [
        ['entity', 'board meeting', 'date', '12 June'],
        ['entity', 'board meeting', 'date', '19 June'],
      ],
    ],
    [
      [
        'The trial period for new accounts is 14 days.',
        'We changed the trial period for new accounts to 30 days.',
      ],
      [
        ['entity', 'new accounts', 'trial period', '14 days'],
        ['entity', 'new accounts', 'trial period', '30 days'],
      ],
    ],
    [['Kestrel Metals changed the deposit to 10%.'], [['entity', 'Kestrel Metals', 'deposit', '10%']]],
  ])('reads %j as the new value of the same key', async (turns, expected) => {
    expect(await read(turns)).toEqual(expected);
  });

  it.each([['I changed my mind to be honest.'], ['We moved the team to Berlin.']])(
    'reads nothing from %j',
    async (turn) => {
      expect(await read([turn])).toEqual([]);
    },
  );
});
