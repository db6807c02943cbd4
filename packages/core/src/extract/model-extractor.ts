import { z } from 'zod/v4';
import { StrataError } from '../errors/strata-error.ts';
import {
  type CompletionModel,
  type Extraction,
  type Extractor,
  PORT_SPECIFICATION_VERSION,
  type TurnMessage,
} from '../ports/ports.ts';
import { type ModelOutput, modelOutputSchema } from './extraction-schema.ts';
import { parseModelJson } from './json-output.ts';

export interface ModelExtractorOptions {
  model: CompletionModel;
  /** Extra instructions appended to the system prompt (domain vocabulary, entity types). */
  instructions?: string;
}

/** Raw output kept in error details, at most this many characters. */
const MAX_RAW_CHARS = 65_536;

const SYSTEM_PROMPT = `You extract durable memory from a conversation turn: facts, entities and relations.
Rules:
- Extract only what the numbered NEW messages state. The CONTEXT messages are for understanding references; never extract from them.
- Prefer missing a fact to inventing one. Never guess values.
- Copy values exactly as written ("$4,200", "45 days", "net 60"); do not round, convert or paraphrase.
- kind "statement": the speaker asserts it. kind "correction": it replaces a value stated earlier ("no, it's 30 days, not 45"). kind "hypothetical": a question, what-if, plan under consideration or condition ("what if we extended terms to 90 days?"); give these confidence 0.3 or less.
- Use entity "speaker" (entityType "user") for the person speaking and "we" (entityType "organization") for their team. Use entity "" when the owner of an attribute is not said and not clear from context.
- Reuse the KNOWN ENTITIES' names when a message refers to one of them.
- Relations are lower snake case: "depends_on" (A needs B), "uses", "affects" (A changes B), "replaces" (A replaces B), "decided_by".
- confidence is your probability that the item is true as stated, 0..1.
Answer with one JSON object matching the schema and nothing else.`;

function renderMessages(messages: TurnMessage[], offset: number): string {
  return messages
    .map((m, i) => `[${offset + i + 1}] ${m.role}${m.name ? ` (${m.name})` : ''}: ${m.content}`)
    .join('\n');
}

function buildPrompt(args: {
  messages: TurnMessage[];
  context: TurnMessage[];
  knownEntities: string[];
}): string {
  const parts: string[] = [];
  if (args.knownEntities.length > 0)
    parts.push(`KNOWN ENTITIES: ${args.knownEntities.slice(0, 200).join('; ')}`);
  if (args.context.length > 0) {
    parts.push(
      `CONTEXT (do not extract from these):\n${args.context.map((m) => `- ${m.role}: ${m.content}`).join('\n')}`,
    );
  }
  parts.push(`NEW MESSAGES:\n${renderMessages(args.messages, 0)}`);
  return parts.join('\n\n');
}

let cachedSchema: Record<string, unknown> | undefined;

/** The JSON Schema the model is asked to follow (derived from `modelOutputSchema`). */
export function modelExtractionJsonSchema(): Record<string, unknown> {
  cachedSchema ??= z.toJSONSchema(modelOutputSchema, { io: 'input' }) as Record<string, unknown>;
  return cachedSchema;
}

function toExtraction(output: ModelOutput, messages: TurnMessage[]): Extraction {
  const idOf = (n: number) => messages[Math.min(Math.max(n, 1), messages.length) - 1]!.id;
  return {
    facts: output.facts.map((f) => ({
      entityType: f.entityType,
      entity: f.entity,
      key: f.key,
      value: f.value,
      confidence: f.confidence,
      kind: f.kind,
      messageId: idOf(f.message),
      evidence: f.evidence,
    })),
    entities: output.entities.map((e) => ({
      name: e.name,
      type: e.type,
      ...(e.aliases ? { aliases: e.aliases } : {}),
      messageId: idOf(e.message),
    })),
    relations: output.relations.map((r) => ({
      from: r.from,
      to: r.to,
      relation: r.relation,
      confidence: r.confidence,
      kind: r.kind,
      messageId: idOf(r.message),
      evidence: r.evidence,
    })),
  };
}

/**
 * An LLM-backed extractor over the `CompletionModel` port: exactly one `complete` call per
 * `extract`, asking for JSON that matches a JSON Schema. The reply is parsed tolerantly (code
 * fences and surrounding prose are fine) and then validated; a reply that does not fit fails with
 * `model_output_invalid` (the raw reply in `details.raw`), a model that throws with `model_failure`.
 * `observe` records either as an `extract.failed` audit entry and still stores the turn.
 */
export function modelExtractor(options: ModelExtractorOptions): Extractor {
  const { model } = options;
  if (!model || typeof model.complete !== 'function') {
    throw new StrataError({
      code: 'invalid_input',
      message: 'modelExtractor: `model` must be a CompletionModel',
    });
  }
  const system = options.instructions ? `${SYSTEM_PROMPT}\n${options.instructions}` : SYSTEM_PROMPT;
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: `model:${model.id}`,
    kind: 'model',
    async extract({ messages, context, knownEntities, signal }) {
      if (messages.length === 0) return { facts: [], entities: [], relations: [] };
      let raw: string;
      try {
        raw = await model.complete({
          system,
          prompt: buildPrompt({ messages, context, knownEntities }),
          jsonSchema: modelExtractionJsonSchema(),
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        throw new StrataError({
          code: 'model_failure',
          message: `The extraction model "${model.id}" failed: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
          details: { model: model.id },
        });
      }
      const rawText = typeof raw === 'string' ? raw : String(raw);
      const parsed = parseModelJson(rawText);
      const result = modelOutputSchema.safeParse(parsed);
      if (parsed === undefined || !result.success) {
        throw new StrataError({
          code: 'model_output_invalid',
          message:
            parsed === undefined
              ? `The extraction model "${model.id}" did not return a JSON object.`
              : `The extraction model "${model.id}" returned JSON that does not match the schema: ${result.error?.issues
                  .slice(0, 5)
                  .map((i) => `${i.path.join('.') || '(root)'} ${i.message}`)
                  .join('; ')}`,
          details: { model: model.id, raw: rawText.slice(0, MAX_RAW_CHARS) },
        });
      }
      return toExtraction(result.data, messages);
    },
  };
}
