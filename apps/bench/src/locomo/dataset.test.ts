import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StrataError } from '@strata-memory/core';
import { afterEach, describe, expect, it } from 'vitest';
import { OFFICIAL_FILE, TINY_DIR } from '../../test/fixtures.ts';
import {
  allTurns,
  loadConversations,
  parseConversation,
  selectConversations,
  TURN_SPACING_MS,
} from './dataset.ts';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('loadConversations', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('reads the turns, dates and questions of every conv-*.json', async () => {
    const [conversation, ...rest] = await loadConversations(TINY_DIR);
    expect(rest).toHaveLength(0);
    expect(conversation!.id).toBe('conv-1');
    expect(conversation!.speakers).toEqual(['Ana', 'Ben']);
    // session_3 has a date but no turns: skipped.
    expect(conversation!.sessions.map((s) => s.index)).toEqual([1, 2]);
    const turns = allTurns(conversation!);
    expect(turns.map((t) => t.id)).toEqual(['D1:1', 'D1:2', 'D1:3', 'D1:4', 'D2:1', 'D2:2', 'D2:3', 'D2:4']);
    expect(turns[0]).toMatchObject({ speaker: 'Ana', session: 1, at: Date.UTC(2024, 2, 3, 9, 15) });
    expect(turns[3]!.at).toBe(Date.UTC(2024, 2, 3, 9, 15) + 3 * TURN_SPACING_MS);
    expect(turns[4]!.at).toBe(Date.UTC(2024, 3, 12, 16, 40));
    expect(conversation!.questions).toHaveLength(7);
    expect(conversation!.questions[1]).toEqual({
      question: 'What did Biscuit chew, and where did Biscuit cheer for Ana?',
      category: 1,
      evidence: ['D1:3; D2:3'],
    });
  });

  it('appends a shared image caption to the turn, never the image search query', async () => {
    const [conversation] = await loadConversations(TINY_DIR);
    const turn = allTurns(conversation!).find((t) => t.id === 'D1:2')!;
    expect(turn.content).toBe(
      'Congrats! I started pottery classes at the community studio. [shares an image: a photo of a clay vase on a wheel]',
    );
  });

  it('never reads the annotations (events, observations, summaries) into turns', async () => {
    const [conversation] = await loadConversations(TINY_DIR);
    const text = JSON.stringify(conversation!.sessions);
    expect(text).not.toContain('Quartzfeather');
    expect(text).not.toContain('zebra');
  });

  it('fails with invalid_input on a missing directory, an empty one, or a bad document', async () => {
    expect(
      StrataError.hasCode(await rejection(loadConversations('/nonexistent/locomo')), 'invalid_input'),
    ).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), 'bench-dataset-'));
    dirs.push(dir);
    expect(StrataError.hasCode(await rejection(loadConversations(dir)), 'invalid_input')).toBe(true);
    await writeFile(join(dir, 'conv-9.json'), '{ not json');
    expect(StrataError.hasCode(await rejection(loadConversations(dir)), 'invalid_input')).toBe(true);
  });

  it.each([
    ['no speakers', { qa: [] }],
    ['no session with turns', { speaker_a: 'A', speaker_b: 'B', qa: [] }],
    [
      'a session without a date',
      { speaker_a: 'A', speaker_b: 'B', qa: [], session_1: [{ speaker: 'A', dia_id: 'D1:1', text: 'hi' }] },
    ],
    [
      'an unparseable date',
      {
        speaker_a: 'A',
        speaker_b: 'B',
        qa: [],
        session_1_date_time: 'someday',
        session_1: [{ speaker: 'A', dia_id: 'D1:1', text: 'hi' }],
      },
    ],
    [
      'a turn without text',
      {
        speaker_a: 'A',
        speaker_b: 'B',
        qa: [],
        session_1_date_time: '1:00 pm on 1 May, 2023',
        session_1: [{ speaker: 'A', dia_id: 'D1:1' }],
      },
    ],
    [
      'a repeated turn id',
      {
        speaker_a: 'A',
        speaker_b: 'B',
        qa: [],
        session_1_date_time: '1:00 pm on 1 May, 2023',
        session_1: [
          { speaker: 'A', dia_id: 'D1:1', text: 'hi' },
          { speaker: 'B', dia_id: 'D1:1', text: 'hello' },
        ],
      },
    ],
    [
      'a question with a category out of range',
      {
        speaker_a: 'A',
        speaker_b: 'B',
        qa: [{ question: 'q?', evidence: [], category: 7 }],
        session_1_date_time: '1:00 pm on 1 May, 2023',
        session_1: [{ speaker: 'A', dia_id: 'D1:1', text: 'hi' }],
      },
    ],
  ])('rejects %s with invalid_input', (_name, document) => {
    let caught: unknown;
    try {
      parseConversation('conv-x', document);
    } catch (error) {
      caught = error;
    }
    expect(StrataError.hasCode(caught, 'invalid_input')).toBe(true);
  });
});

describe("loadConversations on the LoCoMo repository's single file (locomo10.json)", () => {
  it('reads every entry as a conversation named by its sample_id, with turns, dates and questions', async () => {
    const [conversation, ...rest] = await loadConversations(OFFICIAL_FILE);
    expect(rest).toHaveLength(0);
    expect(conversation!.id).toBe('conv-7');
    expect(conversation!.speakers).toEqual(['Lena', 'Omar']);
    expect(allTurns(conversation!).map((t) => t.id)).toEqual(['D1:1', 'D1:2', 'D2:1', 'D2:2']);
    expect(allTurns(conversation!)[1]!.content).toBe(
      'Nice! I finally finished my bookshelf. [shares an image: a photo of a wooden bookshelf]',
    );
    expect(conversation!.sessions[1]!.date).toBe(Date.UTC(2023, 5, 19, 18, 30));
    expect(conversation!.questions.map((q) => [q.category, q.evidence])).toEqual([
      [4, ['D1:1']],
      [4, ['D1:2']],
      [5, ['D2:2']],
    ]);
    // Annotations (events, observations, summaries) never reach the turns.
    expect(JSON.stringify(conversation!.sessions)).not.toContain('Marigoldwhistle');
  });

  it('selects conversations by sample_id, as in a folder', async () => {
    const all = await loadConversations(OFFICIAL_FILE);
    expect(selectConversations(all, ['conv-7']).map((c) => c.id)).toEqual(['conv-7']);
    expect(() => selectConversations(all, ['conv-26'])).toThrow(/conv-26/);
  });

  it('rejects a file that is neither format, or holds no conversation, with invalid_input', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-dataset-'));
    try {
      for (const [name, text] of [
        ['object.json', '{"speaker_a": "A"}'],
        ['empty.json', '[]'],
        ['no-id.json', '[{"conversation": {}, "qa": []}]'],
        ['broken.json', '[{'],
      ] as const) {
        await writeFile(join(dir, name), text);
        const error = await rejection(loadConversations(join(dir, name)));
        expect(StrataError.hasCode(error, 'invalid_input'), name).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('selectConversations', () => {
  it('keeps the named conversations, all of them without names, and rejects a name it does not hold', async () => {
    const all = await loadConversations(TINY_DIR);
    expect(selectConversations(all, undefined)).toBe(all);
    expect(selectConversations(all, ['conv-1']).map((c) => c.id)).toEqual(['conv-1']);
    let error: unknown;
    try {
      selectConversations(all, ['conv-1', 'conv-99']);
    } catch (caught) {
      error = caught;
    }
    expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
    expect((error as Error).message).toContain('conv-99');
  });
});
