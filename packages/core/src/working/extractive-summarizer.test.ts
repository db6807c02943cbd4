import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import type { TurnMessage } from '../ports/ports.ts';
import { defaultTokenizer } from '../tokenizer/tokenizer.ts';
import { extractiveSummarizer, splitSentences } from './extractive-summarizer.ts';
import { checkFidelity, findProtectedLiterals } from './protected-literals.ts';

const tokenizer = defaultTokenizer();
const summarizer = extractiveSummarizer({ tokenizer });

function turn(id: number, role: TurnMessage['role'], content: string, name?: string): TurnMessage {
  return { id: `m${id}`, role, content, at: 1_700_000_000_000 + id * 60_000, ...(name ? { name } : {}) };
}

const conversation: TurnMessage[] = [
  turn(1, 'user', 'Hi there. I need help with our steel order.', 'Anna'),
  turn(2, 'assistant', 'Of course. What do you need to know?'),
  turn(3, 'user', 'Supplier X quoted $4,200 for the beams. Delivery is planned for 8 May 2023.', 'Anna'),
  turn(4, 'assistant', 'Noted. Anything else about the order?'),
  turn(5, 'user', 'The payment terms are net 60. Ben Okafor approves anything above $5,000.', 'Anna'),
  turn(6, 'assistant', 'Thanks, I will keep that in mind. The weather is nice today.'),
];

describe('extractiveSummarizer', () => {
  it('keeps every mustKeep literal word for word', async () => {
    const mustKeep = [
      ...new Set(conversation.flatMap((m) => findProtectedLiterals(m.content).map((l) => l.text))),
    ];
    expect(mustKeep).toEqual(
      expect.arrayContaining(['$4,200', '8 May 2023', 'Supplier X', 'Ben Okafor', '$5,000']),
    );
    const { summary } = await summarizer.summarize({ messages: conversation, maxTokens: 80, mustKeep });
    expect(
      checkFidelity({ summary, literals: mustKeep, sources: conversation.map((m) => m.content) }),
    ).toEqual([]);
    expect(summary).toContain('Anna: ');
  });

  it('respects maxTokens when the literals fit, dropping the least salient sentences', async () => {
    const { summary } = await summarizer.summarize({
      messages: conversation,
      maxTokens: 60,
      mustKeep: ['$4,200', 'net 60'],
    });
    expect(tokenizer.count(summary)).toBeLessThanOrEqual(60);
    expect(summary).toContain('$4,200');
    expect(summary).toContain('net 60');
    expect(summary).not.toContain('weather');
  });

  it('keeps literals even when they cannot fit, using snippets', async () => {
    const long = turn(
      7,
      'user',
      `${'We talked at length about many unrelated things, '.repeat(12)}and the final price was $9,999 for all of it.`,
    );
    const { summary } = await summarizer.summarize({ messages: [long], maxTokens: 12, mustKeep: ['$9,999'] });
    expect(summary).toContain('$9,999');
    expect(tokenizer.count(summary)).toBeLessThan(tokenizer.count(long.content));
  });

  it('lists a literal found in no sentence rather than dropping it', async () => {
    const { summary } = await summarizer.summarize({
      messages: conversation,
      maxTokens: 200,
      mustKeep: ['PO-7781'],
    });
    expect(summary).toContain('Kept verbatim: PO-7781');
  });

  it('carries the previous summary forward', async () => {
    const { summary } = await summarizer.summarize({
      previousSummary: 'Anna: Supplier Y was dropped in April.',
      messages: conversation.slice(0, 2),
      maxTokens: 200,
      mustKeep: ['Supplier Y'],
    });
    expect(summary.split('\n')[0]).toBe('Anna: Supplier Y was dropped in April.');
  });

  it('rejects malformed input with a typed error', async () => {
    const error = await summarizer
      .summarize({ messages: conversation, maxTokens: 0, mustKeep: [] })
      .catch((e: unknown) => e);
    expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
  });
});

describe('splitSentences', () => {
  it('splits on sentence ends and line breaks, keeping decimals whole', () => {
    expect(splitSentences('It costs 4.5 dollars. Really? Yes!\nNext line')).toEqual([
      'It costs 4.5 dollars.',
      'Really?',
      'Yes!',
      'Next line',
    ]);
  });
});
