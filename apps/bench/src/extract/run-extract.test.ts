import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusItem } from './corpus.ts';
import { runExtractBench } from './run-extract.ts';

const items: CorpusItem[] = [
  {
    id: 'update-1',
    kind: 'update',
    group: 'g1',
    turns: [
      'Acme Supplies has payment terms of net 60.',
      'Correction: Acme Supplies payment terms are net 45.',
    ],
    facts: [{ entity: 'Acme Supplies', key: 'payment terms', value: 'net 45' }],
    edges: [],
    review: [],
    history: [{ entity: 'Acme Supplies', key: 'payment terms', values: ['net 60', 'net 45'] }],
  },
  {
    id: 'relation-1',
    kind: 'relation',
    group: 'g2',
    turns: ['Billing depends on the event bus.'],
    facts: [],
    edges: [{ from: 'billing', relation: 'depends_on', to: 'event bus' }],
    review: [],
    history: [],
  },
  {
    id: 'none-1',
    kind: 'none',
    group: 'g3',
    turns: ['Thanks!'],
    facts: [],
    edges: [],
    review: [],
    history: [],
  },
];

const terms = (value: string, kind: string) =>
  JSON.stringify({
    facts: [
      {
        message: 1,
        entityType: 'supplier',
        entity: 'Acme Supplies',
        key: 'payment terms',
        value,
        confidence: 0.9,
        kind,
        evidence: value,
      },
    ],
    entities: [],
    relations: [],
  });

const recording = {
  model: 'recorded-test',
  outputs: {
    'Acme Supplies has payment terms of net 60.': terms('net 60', 'statement'),
    'Correction: Acme Supplies payment terms are net 45.': `\`\`\`json\n${terms('net 45', 'correction')}\n\`\`\``,
    'Billing depends on the event bus.': JSON.stringify({
      relations: [
        {
          message: 1,
          from: { name: 'billing', type: 'component' },
          relation: 'depends_on',
          to: { name: 'event bus', type: 'component' },
          confidence: 0.9,
          kind: 'statement',
          evidence: 'Billing depends on the event bus.',
        },
      ],
    }),
    'Thanks!': 'You are welcome! Nothing to extract here.',
  },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-extract-'));
  await writeFile(join(dir, 'half-a.json'), JSON.stringify({ half: 'a', items }));
  await writeFile(join(dir, 'recorded.json'), JSON.stringify(recording));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('runExtractBench through the model extractor', () => {
  it('makes one model call per turn, scores what memory holds, and counts a malformed reply as a failed extraction', async () => {
    const report = await runExtractBench({
      halves: ['a'],
      extractor: 'model',
      recorded: join(dir, 'recorded.json'),
      corpusDir: dir,
    });
    const turns = items.reduce((n, i) => n + i.turns.length, 0);
    const [half] = report.halves;
    expect(report.extractor).toBe('model:recorded-test');
    expect(half).toMatchObject({ turns, modelCalls: turns, extractionFailures: 1 });
    const expected = items.reduce((n, i) => n + i.facts.length + i.edges.length + i.history.length, 0);
    expect(half!.overall).toMatchObject({ tp: expected, fp: 0, fn: 0, precision: 1, recall: 1 });
    expect(report.items.map((i) => i.id)).toEqual(items.map((i) => i.id));
  });

  it('scores the same through an AI SDK model and aiSdkExtractor, one generate call per turn', async () => {
    const options = { halves: ['a' as const], recorded: join(dir, 'recorded.json'), corpusDir: dir };
    const core = await runExtractBench({ ...options, extractor: 'model' });
    const aiSdk = await runExtractBench({ ...options, extractor: 'ai-sdk' });
    expect(aiSdk.extractor).toBe('model:recorded:recorded-test');
    expect(aiSdk.halves[0]!.modelCalls).toBe(aiSdk.halves[0]!.turns);
    expect(aiSdk.halves[0]!.extractionFailures).toBe(1);
    expect(aiSdk.halves[0]!.overall).toEqual(core.halves[0]!.overall);
    expect(aiSdk.items).toEqual(core.items);
  });

  it('fails clearly on a recording that is not one', async () => {
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ outputs: [] }));
    await expect(
      runExtractBench({ halves: ['a'], extractor: 'model', recorded: join(dir, 'bad.json'), corpusDir: dir }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('runExtractBench, a recording that misses a sentence', () => {
  it('refuses to score rather than count the gap as the model missing it', async () => {
    const partial = { ...recording, outputs: { ...recording.outputs, 'Thanks!': undefined } };
    await writeFile(join(dir, 'partial.json'), JSON.stringify(partial));
    await expect(
      runExtractBench({
        halves: ['a'],
        extractor: 'model',
        recorded: join(dir, 'partial.json'),
        corpusDir: dir,
      }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('Thanks!') });
  });
});
