import { describe, expect, it } from 'vitest';
import { LiteralAgreement } from './literal-agreement.ts';

describe('LiteralAgreement: duplicates must state the same literals', () => {
  const cases: Array<[string, string, boolean]> = [
    ["Supplier X's lead time is 45 days.", "Supplier X's lead time is 45 days!", true],
    ['I prefer window seats.', 'i prefer   WINDOW seats!', true],
    ['Deploys happen on Tuesdays', 'deploys happen on tuesdays!', true],
    ["Supplier X's lead time is 45 days.", "Supplier X's lead time is 30 days.", false],
    ['Supplier X quoted $4,200 for the beams.', 'Supplier X quoted €4,200 for the beams.', false],
    ['The order number is PO-7781.', 'The order number is PO-7782.', false],
    ["Supplier X's lead time is 45 days.", "Supplier Y's lead time is 45 days.", false],
    ['We ship on 3 May.', 'We ship on 4 May.', false],
    ['Lunch was good.', 'Lunch was great.', true],
  ];
  it.each(cases)('%s | %s → %s', (a, b, expected) => {
    const literals = new LiteralAgreement();
    expect(literals.agree(a, b)).toBe(expected);
    expect(literals.agree(b, a)).toBe(expected);
  });
});
