import { rulesExtractor } from '../extract/rules-extractor.ts';
import type { TurnMessage } from '../ports/ports.ts';

/**
 * For the extraction tests: every turn through the rules extractor in order, each with the earlier
 * ones as context; the facts of each, flattened to `[kind or entity type, entity, key, value]`.
 */
export async function extractedTurns(
  turns: readonly string[],
  first: 'kind' | 'entityType' = 'kind',
): Promise<Array<[string, string, string, unknown]>> {
  const extractor = rulesExtractor();
  const out: Array<[string, string, string, unknown]> = [];
  const context: TurnMessage[] = [];
  for (const [i, content] of turns.entries()) {
    const message: TurnMessage = { id: `m${i}`, role: 'user', content, at: 0 };
    const { facts } = await extractor.extract({
      messages: [message],
      context: [...context],
      knownEntities: [],
    });
    for (const f of facts) {
      out.push([first === 'kind' ? (f.kind ?? 'statement') : f.entityType, f.entity, f.key, f.value]);
    }
    context.push(message);
  }
  return out;
}

/** For the extraction tests: the facts of the last turn, the earlier turns given as its context. */
export async function factsAfter(
  ...turns: string[]
): Promise<Array<{ entity: string; key: string; value: unknown; kind: string | undefined }>> {
  const messages = turns.map((content, i): TurnMessage => ({ id: `m${i}`, role: 'user', content, at: i }));
  const { facts } = await rulesExtractor().extract({
    messages: messages.slice(-1),
    context: messages.slice(0, -1),
    knownEntities: [],
  });
  return facts.map((f) => ({ entity: f.entity, key: f.key, value: f.value, kind: f.kind }));
}

/** The last turn's facts as `[entity, key, value]` rows. */
export async function factRows(...turns: string[]): Promise<Array<[string, string, unknown]>> {
  return (await factsAfter(...turns)).map((f) => [f.entity, f.key, f.value]);
}
