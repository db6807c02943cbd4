import type { Engine } from '../engine/engine.ts';
import { StrataError } from '../errors/strata-error.ts';
import { extractionSchema } from '../extract/extraction-schema.ts';
import type { Extraction, TurnMessage } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import type { MessageRole } from '../store/records.ts';
import { visibleMessages } from '../working/message-access.ts';

/**
 * The extraction step of `observe`: one `extract` call for the whole turn, with a few earlier
 * messages of the thread as context and the names memory already knows. The output of any
 * extractor is validated before anything is written from it; a throw or an invalid output comes
 * back as a `failure` (with the raw output when there is one) for `observe` to audit — it never
 * makes `observe` fail.
 */

const MAX_RAW_IN_AUDIT = 65_536;

export interface ExtractionRun {
  extraction?: Extraction;
  failure?: { error: string; code?: string; raw?: string };
}

function turnMessage(
  m: { id: string; role: MessageRole; content: string; name?: string },
  at: number,
): TurnMessage {
  return { id: m.id, role: m.role, content: m.content, ...(m.name ? { name: m.name } : {}), at };
}

export async function runExtraction(
  engine: Engine,
  args: {
    scope: Scope;
    target: Scope;
    fresh: Array<{
      id: string;
      role: MessageRole;
      content: string;
      name?: string;
      at: number;
      accessLevel: number;
    }>;
    signal?: AbortSignal;
  },
): Promise<ExtractionRun> {
  const messages = args.fresh.filter((p) => p.content.trim().length > 0).map((p) => turnMessage(p, p.at));
  if (messages.length === 0) return { extraction: { facts: [], entities: [], relations: [] } };
  const { store, policy } = engine;
  let context: TurnMessage[] = [];
  if (args.scope.threadId !== undefined && policy.extractionContextTurns > 0) {
    const earlier = await store.threads.listMessages({
      scope: args.scope,
      order: 'desc',
      limit: policy.extractionContextTurns,
    });
    // Context never carries words from a turn more restricted than the least restricted one being
    // extracted: a fact takes its message's access level, and must not repeat what its readers
    // may not see.
    const level = Math.min(...args.fresh.map((p) => p.accessLevel));
    context = visibleMessages(earlier.reverse(), level).map((m) => turnMessage(m, m.createdAt));
  }
  const known = await store.graph.listNodes({ scope: args.target, limit: 200 });
  const knownEntities = [...new Set(known.items.flatMap((n) => [n.name, ...n.aliases]))];
  let output: unknown;
  try {
    output = await engine.extractor.extract({
      messages,
      context,
      knownEntities,
      ...(args.signal ? { signal: args.signal } : {}),
    });
  } catch (error) {
    const raw = StrataError.isInstance(error) ? error.details.raw : undefined;
    return {
      failure: {
        error: error instanceof Error ? error.message : String(error),
        ...(StrataError.isInstance(error) ? { code: error.code } : {}),
        ...(typeof raw === 'string' ? { raw: raw.slice(0, MAX_RAW_IN_AUDIT) } : {}),
      },
    };
  }
  const parsed = extractionSchema.safeParse(output);
  if (!parsed.success) {
    return {
      failure: {
        error: `The extractor "${engine.extractor.id}" returned output that does not match the Extraction shape: ${parsed.error.issues
          .slice(0, 5)
          .map((i) => `${i.path.join('.') || '(root)'} ${i.message}`)
          .join('; ')}`,
        code: 'model_output_invalid',
        raw: (JSON.stringify(output) ?? String(output)).slice(0, MAX_RAW_IN_AUDIT),
      },
    };
  }
  return { extraction: parsed.data as Extraction };
}
