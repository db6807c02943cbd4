import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { PORT_SPECIFICATION_VERSION, type Tokenizer, type TurnMessage } from '../ports/ports.ts';
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

  it('keeps whole sentences that carry literals even when they cannot fit, never cutting one', async () => {
    const filler = `${'We talked at length about many unrelated things, '.repeat(6)}and none of it mattered.`;
    const priced = `${'After a long back and forth about delivery windows, '.repeat(3)}the final price was $9,999 for all of it.`;
    const long = turn(7, 'user', `${filler} ${priced}`, 'Anna');
    const { summary } = await summarizer.summarize({ messages: [long], maxTokens: 12, mustKeep: ['$9,999'] });
    // The literal's sentence is kept whole (over maxTokens), with its speaker; the filler is dropped.
    expect(summary).toBe(`Anna: ${priced}`);
    expect(summary).not.toContain('…');
    expect(tokenizer.count(summary)).toBeGreaterThan(12);
  });

  it('counts maxTokens with the tokenizer it is given', async () => {
    const characters: Tokenizer = {
      specificationVersion: PORT_SPECIFICATION_VERSION,
      id: 'characters',
      count: (text) => text.length,
      truncate: (text, max) => text.slice(0, Math.max(0, max)),
    };
    const args = { messages: conversation, maxTokens: 160, mustKeep: ['$4,200'] };
    const byCharacters = await extractiveSummarizer({ tokenizer: characters }).summarize(args);
    const byTokens = await summarizer.summarize(args);
    expect(byCharacters.summary.length).toBeLessThanOrEqual(160);
    expect(byCharacters.summary).toContain('$4,200');
    // 160 o200k tokens hold far more than 160 characters.
    expect(byTokens.summary.length).toBeGreaterThan(160);
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
