import { describe, expect, it } from 'vitest';
import { factRows } from '../test/extracted-turns.ts';

const facts = factRows;

describe('what the speaker says of themselves, phrased in other ways', () => {
  it('reads "I am a <job>" when the last word names a job', async () => {
    expect(await facts("I'm a senior product designer at Klarna.")).toEqual([
      ['speaker', 'job title', 'senior product designer'],
      ['speaker', 'employer', 'Klarna'],
    ]);
    expect(await facts("I'm the CTO.")).toEqual([['speaker', 'job title', 'CTO']]);
    expect(await facts("I'm a regular customer.")).toEqual([]);
    expect(await facts("I'm a big fan of jazz.")).toEqual([]);
  });

  it('reads the unit a person runs as their job', async () => {
    expect(await facts('I lead the data platform team at Vireo.')).toEqual([
      ['speaker', 'job title', 'leads the data platform team'],
      ['speaker', 'employer', 'Vireo'],
    ]);
    expect(await facts('I head up the claims department.')).toEqual([
      ['speaker', 'job title', 'heads up the claims department'],
    ]);
    expect(await facts('I run the numbers every Friday.')).toEqual([]);
  });

  it('reads a diet followed or an allergy', async () => {
    expect(await facts('I follow a vegan diet.')).toEqual([['speaker', 'diet', 'vegan']]);
    expect(await facts("I'm on a low-carb diet.")).toEqual([['speaker', 'diet', 'low-carb']]);
    expect(await facts("I'm allergic to peanuts.")).toEqual([['speaker', 'allergy', 'peanuts']]);
    expect(await facts('I follow a strict schedule.')).toEqual([]);
  });

  it('reads the date a document of the speaker or the team expires, renews or ends', async () => {
    expect(await facts('My passport expires in June 2028.')).toEqual([
      ['speaker', 'passport expiry', 'June 2028'],
    ]);
    expect(await facts('My driving licence expires on 3 March 2031.')).toEqual([
      ['speaker', 'driving licence expiry', '3 March 2031'],
    ]);
    expect(await facts('Our office lease ends in September 2027.')).toEqual([
      ['we', 'office lease end date', 'September 2027'],
    ]);
  });

  it('reads a name given after "the name\'s" or "this is"', async () => {
    expect(await facts("The name's Oliver.")).toEqual([['speaker', 'name', 'Oliver']]);
    expect(await facts('This is Tom from accounts.')).toEqual([['speaker', 'name', 'Tom']]);
    expect(await facts('This is great.')).toEqual([]);
  });
});

describe('preferences keyed by the kind of choice', () => {
  it('keys a choice between ways of getting in touch or of travelling by its kind', async () => {
    expect(await facts('I prefer email over phone calls.')).toEqual([
      ['speaker', 'contact preference', 'email'],
    ]);
    expect(await facts('I prefer texting to phone calls.')).toEqual([
      ['speaker', 'contact preference', 'texting'],
    ]);
    expect(await facts('I prefer trains to planes for trips under four hours.')).toEqual([
      ['speaker', 'travel preference', 'trains'],
    ]);
  });

  it('reads "I\'d rather" and "I like X better than Y" as preferences', async () => {
    expect(await facts("I'd rather take the train than fly.")).toEqual([
      ['speaker', 'travel preference', 'the train'],
    ]);
    expect(await facts('I like aisle seats better than window seats.')).toEqual([
      ['speaker', 'seat preference', 'aisle seats'],
    ]);
  });
});

describe('where the speaker is and what they are called, in other words', () => {
  it('reads a time zone, a home airport, pronouns in use and names others call them', async () => {
    expect(await facts("I'm on Eastern Time.")).toEqual([['speaker', 'time zone', 'Eastern Time']]);
    expect(await facts("I'm in CET.")).toEqual([['speaker', 'time zone', 'CET']]);
    expect(await facts("I'm in IT.")).toEqual([]);
    expect(await facts('I usually fly out of Gatwick.')).toEqual([['speaker', 'home airport', 'Gatwick']]);
    expect(await facts('I use they/them pronouns.')).toEqual([['speaker', 'pronouns', 'they/them']]);
    expect(await facts('Everyone calls me Bea.')).toEqual([['speaker', 'name', 'Bea']]);
    expect(await facts("I'm based out of Denver.")).toEqual([['speaker', 'home city', 'Denver']]);
  });

  it('reads "I prefer to travel by <choice>"', async () => {
    expect(await facts('I prefer to travel by train.')).toEqual([['speaker', 'travel preference', 'train']]);
  });
});
