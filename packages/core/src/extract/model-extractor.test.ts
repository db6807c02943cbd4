import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import type { TurnMessage } from '../ports/ports.ts';
import { scriptedModel } from '../test/index.ts';
import { parseModelJson } from './json-output.ts';
import { modelExtractionJsonSchema, modelExtractor } from './model-extractor.ts';

const messages: TurnMessage[] = [
  { id: 'u1', role: 'user', content: "Supplier X's lead time is 45 days.", at: 1 },
  { id: 'u2', role: 'user', content: 'What if we extended terms to 90 days?', at: 2 },
];

const reply = {
  facts: [
    {
      message: 1,
      entityType: 'supplier',
      entity: 'Supplier X',
      key: 'lead time',
      value: '45 days',
      confidence: 0.9,
      kind: 'statement',
      evidence: "Supplier X's lead time is 45 days.",
    },
    {
      message: 2,
      entityType: 'organization',
      entity: 'we',
      key: 'payment terms',
      value: '90 days',
      confidence: 0.2,
      kind: 'hypothetical',
      evidence: 'What if we extended terms to 90 days?',
    },
  ],
  entities: [{ message: 1, name: 'Supplier X', type: 'supplier' }],
  relations: [],
};

async function failure(promise: Promise<unknown>): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

describe('modelExtractor', () => {
  it('makes exactly one model call per extract, with the JSON Schema', async () => {
    const model = scriptedModel([JSON.stringify(reply)]);
    const extractor = modelExtractor({ model });
    const out = await extractor.extract({
      messages,
      context: [{ id: 'c1', role: 'assistant', content: 'Noted.', at: 0 }],
      knownEntities: ['Supplier X'],
    });
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.prompt).toContain('[1] user: Supplier X');
    expect(model.calls[0]!.prompt).toContain('KNOWN ENTITIES: Supplier X');
    expect(model.calls[0]!.prompt).toContain('CONTEXT (do not extract from these)');
    expect(extractor.kind).toBe('model');
    expect(extractor.id).toBe('model:scripted');
    expect(out.facts.map((f) => [f.entity, f.value, f.kind, f.messageId])).toEqual([
      ['Supplier X', '45 days', 'statement', 'u1'],
      ['we', '90 days', 'hypothetical', 'u2'],
    ]);
    expect(out.entities).toEqual([{ name: 'Supplier X', type: 'supplier', messageId: 'u1' }]);
  });

  it('passes a JSON Schema derived from the zod schema', async () => {
    let seen: Record<string, unknown> | undefined;
    const model = {
      ...scriptedModel([JSON.stringify(reply)]),
      async complete(args: { system: string; prompt: string; jsonSchema?: Record<string, unknown> }) {
        seen = args.jsonSchema;
        return JSON.stringify(reply);
      },
    };
    await modelExtractor({ model }).extract({ messages, context: [], knownEntities: [] });
    expect(seen).toEqual(modelExtractionJsonSchema());
    expect((seen?.properties as Record<string, unknown>)?.facts).toBeDefined();
  });

  it('tolerates code fences and prose around the JSON', async () => {
    const model = scriptedModel([
      `Sure! Here is the extraction:\n\`\`\`json\n${JSON.stringify(reply)}\n\`\`\`\nLet me know.`,
    ]);
    const out = await modelExtractor({ model }).extract({ messages, context: [], knownEntities: [] });
    expect(out.facts).toHaveLength(2);
  });

  it('fills in missing arrays', async () => {
    const model = scriptedModel(['{"facts": []}']);
    const out = await modelExtractor({ model }).extract({ messages, context: [], knownEntities: [] });
    expect(out).toEqual({ facts: [], entities: [], relations: [] });
  });

  it('rejects output that is not JSON with model_output_invalid and the raw reply', async () => {
    const raw = 'I could not find any facts, sorry.';
    const error = await failure(
      modelExtractor({ model: scriptedModel([raw]) }).extract({ messages, context: [], knownEntities: [] }),
    );
    expect(error.code).toBe('model_output_invalid');
    expect(error.details.raw).toBe(raw);
  });

  it('rejects JSON of the wrong shape with model_output_invalid', async () => {
    const raw = JSON.stringify({ facts: [{ entity: 'Supplier X', value: 45 }] });
    const error = await failure(
      modelExtractor({ model: scriptedModel([raw]) }).extract({ messages, context: [], knownEntities: [] }),
    );
    expect(error.code).toBe('model_output_invalid');
    expect(error.details.raw).toBe(raw);
    expect(error.message).toMatch(/does not match the schema/);
  });

  it('turns a throwing model into model_failure', async () => {
    const error = await failure(
      modelExtractor({ model: scriptedModel([new Error('rate limited')]) }).extract({
        messages,
        context: [],
        knownEntities: [],
      }),
    );
    expect(error.code).toBe('model_failure');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('rate limited');
  });

  it('makes no call for an empty turn', async () => {
    const model = scriptedModel([JSON.stringify(reply)]);
    expect(await modelExtractor({ model }).extract({ messages: [], context: [], knownEntities: [] })).toEqual(
      {
        facts: [],
        entities: [],
        relations: [],
      },
    );
    expect(model.calls).toHaveLength(0);
  });

  it('refuses to be built without a model', () => {
    expect(() => modelExtractor({ model: undefined as never })).toThrow(/CompletionModel/);
  });
});

describe('parseModelJson', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['```json\n{"a":1}\n```', { a: 1 }],
    ['```\n{"a":1}\n```', { a: 1 }],
    ['Here you go: {"a":{"b":"}"}} hope it helps', { a: { b: '}' } }],
    ['\uFEFF {"a":[1,2]}', { a: [1, 2] }],
  ])('reads %j', (raw, expected) => {
    expect(parseModelJson(raw)).toEqual(expected);
  });

  it.each(['', 'no json here', '[1,2,3]', '{"a":', 'null'])('returns undefined for %j', (raw) => {
    expect(parseModelJson(raw)).toBeUndefined();
  });
});
