import { describe, expect, it } from 'vitest';
import { checkFidelity, findProtectedLiterals } from './protected-literals.ts';

const texts = (s: string) => findProtectedLiterals(s).map((l) => `${l.kind}:${l.text}`);

describe('findProtectedLiterals', () => {
  it('finds amounts, percentages and plain numbers', () => {
    expect(texts('The invoice is $4,200 and the deposit 15% or EUR 300, net 60.')).toEqual([
      'amount:$4,200',
      'amount:15%',
      'amount:EUR 300',
      'number:60',
    ]);
    expect(texts('Budget: 1.5 million dollars.')).toEqual(['amount:1.5 million dollars']);
  });

  it('finds dates in common forms', () => {
    expect(texts('We met on 8 May 2023, again on May 9, 2023 and on 2023-05-10.')).toEqual([
      'date:8 May 2023',
      'date:May 9, 2023',
      'date:2023-05-10',
    ]);
    expect(texts('Delivery is due Friday at 3:30 pm.')).toEqual(['date:Friday', 'date:3:30 pm']);
  });

  it('finds proper names but not sentence-initial common words', () => {
    expect(texts('Thanks! We spoke to Anna Schmidt at Supplier X about it.')).toEqual([
      'name:Anna Schmidt',
      'name:Supplier X',
    ]);
    expect(texts('Sure. Great idea.')).toEqual([]);
    // A sentence-initial name counts when it also appears mid-sentence.
    expect(texts('Rotterdam is busy. We ship via Rotterdam.')).toEqual(['name:Rotterdam', 'name:Rotterdam']);
  });

  it('finds codes that hold digits', () => {
    expect(texts('Ref INV-2024-001 and PO7781.')).toEqual(['number:INV-2024-001', 'number:PO7781']);
  });
});

describe('checkFidelity', () => {
  const sources = ['The invoice total is $4,200, due on 8 May 2023 to Supplier X.'];
  const literals = ['$4,200', '8 May 2023', 'Supplier X'];

  it('accepts a summary that keeps every literal verbatim', () => {
    expect(
      checkFidelity({ summary: 'Supplier X invoiced $4,200, due 8 May 2023.', literals, sources }),
    ).toEqual([]);
  });

  it('rejects "approximately $4,200": a hedge alters the literal', () => {
    const issues = checkFidelity({
      summary: 'Supplier X invoiced approximately $4,200, due 8 May 2023.',
      literals,
      sources,
    });
    expect(issues).toEqual([{ literal: '$4,200', problem: 'hedged', hedge: 'approximately' }]);
    for (const hedged of ['about $4,200', '~$4,200', 'roughly $4,200', '$4,200 or so', 'around $4,200']) {
      const found = checkFidelity({ summary: `Supplier X: ${hedged}, 8 May 2023.`, literals, sources });
      expect(
        found.map((i) => i.problem),
        hedged,
      ).toEqual(['hedged']);
    }
  });

  it('rejects "$4,250" and "$4,2000": a changed number is a dropped literal', () => {
    for (const altered of ['$4,250', '$4,2000', '$4,200.50', '4,200']) {
      const issues = checkFidelity({
        summary: `Supplier X invoiced ${altered} on 8 May 2023.`,
        literals,
        sources,
      });
      expect(issues, altered).toEqual([{ literal: '$4,200', problem: 'missing' }]);
    }
  });

  it('matches across different runs of whitespace', () => {
    expect(
      checkFidelity({ summary: 'Supplier\nX invoiced $4,200, due 8 May  2023.', literals, sources }),
    ).toEqual([]);
  });

  it('allows a hedge the source itself used', () => {
    expect(
      checkFidelity({
        summary: 'Costs about $300.',
        literals: ['$300'],
        sources: ['It costs about $300 per unit.'],
      }),
    ).toEqual([]);
  });

  it('rejects a dropped name or date', () => {
    const issues = checkFidelity({ summary: 'The supplier invoiced $4,200 in May.', literals, sources });
    expect(issues.map((i) => i.literal).sort()).toEqual(['8 May 2023', 'Supplier X']);
  });
});
