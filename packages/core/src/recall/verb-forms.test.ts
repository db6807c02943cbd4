import { describe, expect, it } from 'vitest';
import { words } from '../text/terms.ts';
import { withVerbForms } from './verb-forms.ts';

describe('withVerbForms', () => {
  it('appends the other forms of each irregular verb, found by any form or inflection', () => {
    expect(withVerbForms('When did Melanie buy the figurines?')).toBe(
      'When did Melanie buy the figurines? bought',
    );
    expect(words(withVerbForms('What is she drawing?'))).toEqual(
      expect.arrayContaining(['drawing', 'drew', 'drawn']),
    );
    expect(words(withVerbForms('Where she went last week'))).toEqual(expect.arrayContaining(['go', 'gone']));
  });

  it('leaves a query without irregular verbs unchanged and adds no stop words', () => {
    expect(withVerbForms('supplier payment terms')).toBe('supplier payment terms');
    // "get"/"got" are stop words: neither the query's nor an added one counts.
    expect(withVerbForms('Did she get it?')).toBe('Did she get it?');
  });
});
