import { describe, expect, it } from 'vitest';
import { factRows, factsAfter } from '../test/extracted-turns.ts';

const read = (content: string) => factsAfter(content);
const facts = factRows;

describe('a speaker introducing themselves', () => {
  it('reads past a greeting', async () => {
    expect(await facts('Good morning, my name is Sam Patel.')).toEqual([['speaker', 'name', 'Sam Patel']]);
    expect(await facts('Hey there, I live in Leeds.')).toEqual([['speaker', 'home city', 'Leeds']]);
  });

  it('reads a role given after the name without an article only when its words name a job', async () => {
    expect(await facts("I'm Ana Costa, director of finance.")).toEqual([
      ['speaker', 'name', 'Ana Costa'],
      ['speaker', 'job title', 'director of finance'],
    ]);
    expect(await facts("I'm Tom, thanks.")).toEqual([['speaker', 'name', 'Tom']]);
    expect(await facts("I'm Sara, nice to meet you.")).toEqual([['speaker', 'name', 'Sara']]);
  });

  it('reads the organisation a job is held at as the employer, its whole name', async () => {
    expect(await facts("I'm a consultant with Deloitte in Leeds.")).toEqual([
      ['speaker', 'job title', 'consultant'],
      ['speaker', 'employer', 'Deloitte'],
    ]);
    expect(await facts("I'm a nurse at St Mary's Hospital.")).toEqual([
      ['speaker', 'job title', 'nurse'],
      ['speaker', 'employer', "St Mary's Hospital"],
    ]);
  });

  it('reads each statement joined by "but"', async () => {
    expect(await facts("I'm from Lyon but I live in Geneva.")).toEqual([['speaker', 'home city', 'Geneva']]);
  });
});

describe('what a speaker speaks, eats, has and drives', () => {
  it('reads the languages a speaker names, and nothing from speaking to someone', async () => {
    expect(await facts('I speak Portuguese, Spanish and English.')).toEqual([
      ['speaker', 'languages', 'Portuguese, Spanish and English'],
    ]);
    expect(await facts('I speak to the team weekly.')).toEqual([]);
  });

  it('reads food a speaker never eats as their diet, and no other negated sentence', async () => {
    expect(await facts('I never eat shellfish.')).toEqual([['speaker', 'diet', 'no shellfish']]);
    expect(await facts("I don't drink alcohol.")).toEqual([['speaker', 'diet', 'no alcohol']]);
    expect(await facts("I don't eat after 8 pm.")).toEqual([]);
    expect(await facts("I don't live in Paris.")).toEqual([]);
  });

  it('reads a diet kept "only"', async () => {
    expect(await facts('I only eat kosher food.')).toEqual([['speaker', 'diet', 'kosher']]);
    expect(await facts('I eat vegan only.')).toEqual([['speaker', 'diet', 'vegan']]);
  });

  it('reads a condition a speaker says they have', async () => {
    expect(await facts("I'm asthmatic.")).toEqual([['speaker', 'medical condition', 'asthmatic']]);
    expect(await facts("I'm hungry.")).toEqual([]);
  });

  it('reads the car a speaker drives, without where they drive it', async () => {
    expect(await facts('I drive a Volvo XC60 to work.')).toEqual([['speaker', 'car', 'Volvo XC60']]);
    expect(await facts('I drive a hybrid.')).toEqual([['speaker', 'car', 'hybrid']]);
    expect(await facts('I drive a lot.')).toEqual([]);
  });
});

describe('preferences and changes in other words', () => {
  it('reads the airline a speaker prefers to fly with', async () => {
    expect(await facts('I prefer to fly with Iberia.')).toEqual([['speaker', 'preferred airline', 'Iberia']]);
    expect(await facts('I prefer Qantas when I fly.')).toEqual([['speaker', 'preferred airline', 'Qantas']]);
    expect(await facts('I like to fly with friends.')).toEqual([]);
  });

  it('keys a preference by the thing preferred, not by what follows it', async () => {
    expect(await facts('I prefer window seats close to the wing.')).toEqual([
      ['speaker', 'seat preference', 'window seats'],
    ]);
    expect(await facts('I prefer quiet rooms away from the lift.')).toEqual([
      ['speaker', 'room preference', 'quiet rooms'],
    ]);
    expect(await facts('I prefer aisle seats and extra legroom.')).toEqual([
      ['speaker', 'seat preference', 'aisle seats'],
    ]);
  });

  it('reads "I switched, …" before a statement as a change of its value', async () => {
    expect(await read('I moved, my home airport is LIS.')).toEqual([
      { entity: 'speaker', key: 'home airport', value: 'LIS', kind: 'correction' },
    ]);
    expect(await read('We switched, the payroll provider is Deel.')).toMatchObject([
      { key: 'payroll provider', value: 'Deel', kind: 'correction' },
    ]);
  });

  it('reads a rejected value that has a thousands separator', async () => {
    expect(await read('The Orion budget is $1,200,000, not $1,000,000.')).toEqual([
      { entity: 'Orion', key: 'budget', value: '$1,200,000', kind: 'correction' },
    ]);
  });

  it('reads "done" and "ready" as a status, and as nothing elsewhere', async () => {
    expect(await facts('The Lynx rollout status is done.')).toEqual([['Lynx rollout', 'status', 'done']]);
    expect(await facts('The report is done.')).toEqual([]);
    expect(await facts('The team is ready.')).toEqual([]);
  });
});
