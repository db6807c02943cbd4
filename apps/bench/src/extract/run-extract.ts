import { aiSdkExtractor } from '@strata-memory/ai-sdk';
import {
  createMemory,
  type Extractor,
  type Memory,
  modelExtractor,
  rulesExtractor,
  type Scope,
  StrataError,
} from '@strata-memory/core';
import { normalizeName } from '@strata-memory/core/store';
import { benchClock } from '../setup/bench-clock.ts';
import { openBenchStore } from '../setup/stores.ts';
import { type CorpusHalf, type CorpusItem, loadCorpusHalf } from './corpus.ts';
import { loadRecording, RECORDED_MODEL_FILE, recordedAiSdkModel, recordedModel } from './recorded-model.ts';
import { type ItemObservation, type ItemScore, type ScoreSummary, scoreItem, summarize } from './score.ts';

/** `model`: core's model extractor over the recorded replies; `ai-sdk`: the same replies from an AI SDK model through `aiSdkExtractor`. */
export const EXTRACTOR_KINDS = ['rules', 'model', 'ai-sdk'] as const;
export type ExtractorKind = (typeof EXTRACTOR_KINDS)[number];

export interface ExtractBenchOptions {
  halves: CorpusHalf[];
  extractor: ExtractorKind;
  /** Recorded model replies for `model` and `ai-sdk` (default: the corpus's `recorded-model.json`). */
  recorded?: string;
  /** Folder of `half-*.json` (default: the corpus in this package). */
  corpusDir?: string;
}

export interface HalfReport extends ScoreSummary {
  half: CorpusHalf;
  turns: number;
  /** Observed turns whose extraction failed (audited as `extract.failed`; the turn was kept). */
  extractionFailures: number;
  /** Model calls (model extractor only). */
  modelCalls?: number;
}

export interface ExtractReport {
  benchmark: 'extract';
  extractor: string;
  store: 'sqlite';
  halves: HalfReport[];
  /** Every item's tallies, for finding what was missed. */
  items: Array<ItemScore & { half: CorpusHalf }>;
}

const TURN_GAP_MS = 60_000;

/** One scope per item, its own organisation too, so no item sees another's facts. */
function itemScope(item: CorpusItem): Scope {
  return { orgId: `org-${item.id}`, userId: `user-${item.id}`, threadId: `thread-${item.id}` };
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** What memory holds for the item's scope: current facts with their histories, active edges, pending review items. */
export async function observeState(memory: Memory, scope: Scope): Promise<ItemObservation> {
  const speaker = normalizeName(scope.userId ?? '');
  const team = normalizeName(scope.orgId ?? '');
  const entityOf = (type: string, id: string) =>
    type === 'user' && id === speaker ? 'speaker' : type === 'organization' && id === team ? 'we' : id;
  const facts = await Promise.all(
    (await memory.facts.list(scope)).map(async (f) => {
      const versions = await memory.facts.history(scope, {
        entityType: f.entityType,
        entity: f.entityId,
        key: f.key,
      });
      return {
        entity: entityOf(f.entityType, f.entityId),
        key: f.key,
        value: asText(f.value),
        history: versions.map((v) => asText(v.value)),
      };
    }),
  );
  const edges = (await memory.store.graph.listEdges({ scope, limit: 1000 })).items;
  const nodeIds = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
  const nodes = new Map(
    (nodeIds.length === 0 ? [] : await memory.store.graph.getNodes({ scope, ids: nodeIds })).map((n) => [
      n.id,
      [n.name, ...n.aliases],
    ]),
  );
  const review = (await memory.review.list(scope, { status: ['pending'] })).map((r) =>
    r.kind === 'edge'
      ? asText((r.proposal.to as { name?: unknown } | undefined)?.name ?? '')
      : asText(r.proposal.value),
  );
  return {
    facts,
    edges: edges.map((e) => ({
      from: nodes.get(e.from) ?? [],
      relation: e.relation,
      to: nodes.get(e.to) ?? [],
    })),
    review,
  };
}

async function buildExtractor(
  options: ExtractBenchOptions,
  items: CorpusItem[],
): Promise<{ extractor: Extractor; calls?: () => number }> {
  if (options.extractor === 'rules') return { extractor: rulesExtractor() };
  const recording = await loadRecording(options.recorded ?? RECORDED_MODEL_FILE);
  const missing = items.flatMap((i) => i.turns).filter((turn) => recording.outputs[turn] === undefined);
  if (missing.length > 0) {
    throw new StrataError({
      code: 'invalid_input',
      message: `The recording has no reply for ${missing.length} sentence(s) of the corpus, e.g. ${JSON.stringify(missing[0])}`,
    });
  }
  if (options.extractor === 'ai-sdk') {
    const model = recordedAiSdkModel(recording);
    return {
      extractor: aiSdkExtractor({ model, maxRetries: 0 }),
      calls: () => model.doGenerateCalls.length,
    };
  }
  const model = recordedModel(recording);
  return { extractor: modelExtractor({ model }), calls: () => model.calls };
}

async function runHalf(
  half: CorpusHalf,
  options: ExtractBenchOptions,
): Promise<{ report: HalfReport; items: ItemScore[]; extractorId: string }> {
  const corpus = await loadCorpusHalf(half, options.corpusDir);
  const { extractor, calls } = await buildExtractor(options, corpus.items);
  const bench = await openBenchStore('sqlite');
  const clock = benchClock(Date.UTC(2026, 0, 5, 9));
  const memory = createMemory({ store: bench.store, extractor, clock });
  const scores: ItemScore[] = [];
  let turns = 0;
  let extractionFailures = 0;
  try {
    for (const item of corpus.items) {
      const scope = itemScope(item);
      for (const content of item.turns) {
        clock.set(clock.now() + TURN_GAP_MS);
        const result = await memory.observe(scope, { role: 'user', content });
        turns++;
        if (!result.extraction.ok) extractionFailures++;
      }
      scores.push(scoreItem(item, await observeState(memory, scope)));
    }
  } finally {
    await memory.close();
    await bench.close();
  }
  return {
    report: {
      half,
      turns,
      extractionFailures,
      ...(calls ? { modelCalls: calls() } : {}),
      ...summarize(scores),
    },
    items: scores,
    extractorId: extractor.id,
  };
}

/** Observes every item of the chosen halves through the engine on a SQLite file and scores what memory holds. */
export async function runExtractBench(options: ExtractBenchOptions): Promise<ExtractReport> {
  if (options.halves.length === 0) {
    throw new StrataError({ code: 'invalid_input', message: 'extract: choose at least one half' });
  }
  const halves: HalfReport[] = [];
  const items: ExtractReport['items'] = [];
  let extractorId = options.extractor;
  for (const half of options.halves) {
    const run = await runHalf(half, options);
    halves.push(run.report);
    items.push(...run.items.map((s) => ({ ...s, half })));
    extractorId = run.extractorId as ExtractorKind;
  }
  return { benchmark: 'extract', extractor: extractorId, store: 'sqlite', halves, items };
}
