import { z } from 'zod/v4';
import { accessLevelOf } from '../memory/policy.ts';
import type {
  ExplainEntry,
  Layer,
  MemoryContext,
  MemoryPolicy,
  RecalledEpisode,
  RecalledFact,
  RecalledItem,
  RecalledPath,
  RecallOptions,
} from '../memory/types.ts';
import type { Clock, Embedder, Summarizer, Tokenizer } from '../ports/ports.ts';
import { idSchema, type Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import type { MessageRecord } from '../store/records.ts';
import { loadWorkingMemory, type WorkingMemory } from '../working/working-memory.ts';
import type { PinReason } from '../working/working-window.ts';
import { packByRank, packByValue } from './budget-packer.ts';
import { type EpisodeRetrieval, retrieveEpisodes } from './episode-retrieval.ts';
import { type FactCandidate, loadCurrentFacts, scoreFacts } from './fact-selection.ts';
import { type GraphRetrieval, retrieveGraphPaths } from './graph-retrieval.ts';
import { dedupePrefixPaths, type LongTermCandidate, lineOf, toRecalledItem } from './long-term-items.ts';
import { escapeMemoryText, renderMemoryBlock } from './render-context.ts';
import { defaultRecallTuning, type RecallTuning } from './tuning.ts';

export { defaultRecallTuning, type RecallTuning } from './tuning.ts';

export interface RecallDeps {
  store: Store;
  embedder?: Embedder;
  tokenizer: Tokenizer;
  summarizer: Summarizer;
  clock: Clock;
  policy: Readonly<MemoryPolicy>;
  /** Internal pipeline knobs, for ablations; the defaults are the shipped behaviour. */
  tuning?: Partial<RecallTuning>;
}

const ALL_LAYERS: readonly Layer[] = ['working', 'summary', 'facts', 'episodes', 'graph'];
const DEFAULT_MAX_EPISODES = 20;
/** Each listed line costs its marker (`- `) and line break on top of its own tokens. */
const LINE_OVERHEAD = 2;
/** Token counts of item lines kept between recalls. */
const LINE_CACHE_SIZE = 20_000;

const recallOptionsSchema = z
  .object({
    query: z.string().max(10_000, 'must be at most 10000 characters').optional(),
    budget: z
      .object({ tokens: z.number().int().min(1).max(1_000_000) })
      .strict()
      .optional(),
    principal: z
      .object({
        id: idSchema,
        role: z.string().min(1).max(512).optional(),
        level: z.number().int().min(0).max(1_000_000).optional(),
      })
      .strict()
      .optional(),
    layers: z.array(z.enum(['working', 'summary', 'facts', 'episodes', 'graph'])).optional(),
    maxEpisodes: z.number().int().min(1).max(200).optional(),
  })
  .strict();

/**
 * Builds the engine's `recall`: a router plus a budget.
 *
 * - Router: facts and working memory always; episodic search when there is a query; graph
 *   traversal only when the query names a known entity or alias.
 * - Budget: the working window (with its rolling summary) gets `policy.workingShare` of the budget
 *   when there is a query (more without); facts, episodes and graph paths share the rest, packed by
 *   value per token; the rendered block is then checked against the budget and trimmed until it
 *   fits, so `render()` never exceeds `budget.tokens`.
 * - Everything considered is in `explain()`, included or not, with its numbers and why.
 *
 * The scope is validated by the caller; `options` are validated here.
 */
export function createRecall(
  deps: RecallDeps,
): (scope: Scope, options?: RecallOptions) => Promise<MemoryContext> {
  const tuning: RecallTuning = { ...defaultRecallTuning, ...deps.tuning };
  const { store, tokenizer, policy } = deps;
  // Item lines repeat across recalls (the same facts and episodes): count each text once.
  const lineTokens = new Map<string, number>();
  const countLine = (text: string): number => {
    let n = lineTokens.get(text);
    if (n === undefined) {
      n = tokenizer.count(text);
      if (lineTokens.size >= LINE_CACHE_SIZE) lineTokens.clear();
      lineTokens.set(text, n);
    }
    return n;
  };

  return async function recall(scope, input = {}) {
    const options = parseArgs(recallOptionsSchema, input, 'recall: options');
    const accessLevel = accessLevelOf(options.principal, policy);
    const query = options.query?.trim() ? options.query.trim() : undefined;
    const layers = new Set<Layer>(options.layers ?? ALL_LAYERS);
    const budget = options.budget?.tokens ?? policy.defaultBudgetTokens;
    const now = deps.clock.now();
    const explain: ExplainEntry[] = [];

    const workingShare = query ? policy.workingShare : Math.max(policy.workingShare, 1 - policy.workingShare);
    const wantsWorking = (layers.has('working') || layers.has('summary')) && scope.threadId !== undefined;

    const [working, facts, episodes, graph] = await Promise.all([
      wantsWorking
        ? loadWorkingMemory({
            store,
            scope,
            tokenizer,
            summarizer: deps.summarizer,
            clock: deps.clock,
            maxTokens: Math.floor(budget * workingShare),
            withSummary: layers.has('summary'),
          })
        : undefined,
      layers.has('facts') ? loadFacts(scope, accessLevel, query, now, explain) : [],
      layers.has('episodes') && query
        ? retrieveEpisodes({
            store,
            ...(deps.embedder ? { embedder: deps.embedder } : {}),
            scope,
            accessLevel,
            query,
            now,
            policy,
            tuning,
            maxEpisodes: options.maxEpisodes ?? DEFAULT_MAX_EPISODES,
          })
        : undefined,
      layers.has('graph') && query
        ? retrieveGraphPaths({ store, scope, accessLevel, query, tuning })
        : undefined,
    ]);

    if (working) explain.push(...working.explain);
    if (episodes) explain.push(...episodes.notes, ...episodes.dropped);
    if (graph) explain.push(...graph.notes, ...graph.dropped);
    if (!query && layers.has('episodes')) {
      explain.push({
        layer: 'episodes',
        id: 'episodic-router',
        tokens: 0,
        reason: 'no query; episodes not searched',
        included: false,
      });
    }

    // ---- pack long-term items into what the working window leaves
    const workingView = working
      ? workingLines(working, layers)
      : { messages: [], summary: [], summaryTokens: 0, messageTokens: 0 };
    const skeleton = tokenizer.count(
      renderMemoryBlock({ facts: ['x'], summary: [], episodes: [], graph: [], working: [] }),
    );
    const sectionTitle = 8;
    const workingUsed =
      workingView.messageTokens +
      workingView.summaryTokens +
      (workingView.messages.length > 0 ? sectionTitle : 0) +
      (workingView.summary.length > 0 ? sectionTitle : 0);
    const candidates = longTermCandidates(facts, episodes, graph);
    const sectionsPresent = new Set(candidates.map((c) => c.layer)).size;
    const longTermBudget = Math.max(0, budget - skeleton - workingUsed - sectionsPresent * sectionTitle);
    const packed =
      tuning.packing === 'density'
        ? packByValue({ items: candidates, budget: longTermBudget, tokenPrior: tuning.tokenPrior })
        : packByRank(candidates, longTermBudget);

    // ---- render, then trim until the whole block fits the budget
    const state = {
      included: [...packed.included],
      messages: [...workingView.messages],
      summary: [...workingView.summary],
    };
    const pinned: ReadonlyMap<string, PinReason> = working?.pinned ?? new Map();
    const trimmed = new Set<string>();
    let rendered = renderState(state);
    let tokens = tokenizer.count(rendered);
    // Each step removes or shortens something, so the loop ends; the guard is a backstop.
    for (let guard = 0; tokens > budget && guard < 100_000; guard++) {
      if (state.included.length > 0) {
        packed.excluded.push(state.included.pop()!);
      } else if (state.messages.some((m) => !pinned.has(m.message.id))) {
        const index = state.messages.findIndex((m) => !pinned.has(m.message.id));
        const [gone] = state.messages.splice(index, 1);
        trimmed.add(gone!.message.id);
      } else if (state.summary.length > 0) {
        state.summary = shortenLines(state.summary, tokens - budget);
      } else if (state.messages.length > 0) {
        state.messages = shortenPinned(state.messages, tokens - budget);
      } else break;
      rendered = renderState(state);
      tokens = tokenizer.count(rendered);
    }
    if (tokens > budget) {
      rendered = '';
      tokens = 0;
    }

    // ---- build sections, items and explain
    const includedIds = new Set(rendered ? state.included.map((c) => `${c.layer}:${c.id}`) : []);
    const sections: MemoryContext['sections'] = { working: [], facts: [], episodes: [], graph: [] };
    const items: RecalledItem[] = [];
    for (const c of rendered ? state.included : []) {
      const item = toRecalledItem(c);
      items.push(item);
      if (item.layer === 'facts') sections.facts.push(item as RecalledFact);
      else if (item.layer === 'episodes') sections.episodes.push(item as RecalledEpisode);
      else sections.graph.push(item as RecalledPath);
      explain.push({
        layer: item.layer,
        id: item.id,
        tokens: item.tokens,
        scores: item.scores,
        reason: item.reason,
        included: true,
      });
    }
    for (const c of packed.excluded) {
      if (includedIds.has(`${c.layer}:${c.id}`)) continue;
      const item = toRecalledItem(c);
      explain.push({
        layer: item.layer,
        id: item.id,
        tokens: item.tokens,
        scores: item.scores,
        reason: `${item.reason}; left out: did not fit the token budget`,
        included: false,
      });
    }
    if (rendered) {
      sections.working = state.messages.map((m) => m.message);
      if (state.summary.length > 0 && working?.summary) sections.summary = working.summary;
    }
    for (const entry of explain) {
      if (entry.layer === 'working' && entry.included && (trimmed.has(entry.id) || !rendered)) {
        entry.included = false;
        entry.reason = `${entry.reason}; left out: did not fit the token budget`;
      }
    }
    if (working?.summary) {
      explain.push({
        layer: 'summary',
        id: `summary:${scope.threadId}`,
        tokens: rendered ? tokensOf(state.summary) : 0,
        reason:
          state.summary.length > 0 && rendered
            ? `rolling summary of messages that left the window${state.summary.join('\n') === workingView.summary.join('\n') ? '' : ' (shortened to fit the budget)'}`
            : 'rolling summary; left out: did not fit the token budget',
        included: state.summary.length > 0 && !!rendered,
      });
    }

    const accessed = sections.episodes.map((e) => e.id);
    if (accessed.length > 0) await store.episodes.recordAccess({ scope, ids: accessed, at: now });

    const finalRendered = rendered;
    const finalExplain = explain.map((e) => ({ ...e }));
    return {
      scope,
      ...(query === undefined ? {} : { query }),
      sections,
      items,
      tokens,
      render: () => finalRendered,
      explain: () => finalExplain.map((e) => ({ ...e, ...(e.scores ? { scores: { ...e.scores } } : {}) })),
    };

    function tokensOf(lines: string[]): number {
      return lines.reduce((sum, l) => sum + tokenizer.count(l) + LINE_OVERHEAD, 0);
    }

    function renderState(s: {
      included: LongTermCandidate[];
      messages: Array<{ message: MessageRecord; line: string }>;
      summary: string[];
    }): string {
      const pick = (layer: LongTermCandidate['layer']) =>
        s.included.filter((c) => c.layer === layer).map((c) => lineOf(c));
      return renderMemoryBlock({
        facts: pick('facts'),
        summary: s.summary,
        episodes: pick('episodes'),
        graph: dedupePrefixPaths(
          s.included.filter((c): c is Extract<LongTermCandidate, { layer: 'graph' }> => c.layer === 'graph'),
        ),
        working: s.messages.map((m) => m.line),
      });
    }

    function shortenPinned(
      messages: Array<{ message: MessageRecord; line: string }>,
      excess: number,
    ): Array<{ message: MessageRecord; line: string }> {
      // Shorten the longest pinned line by the excess (pinned messages are never dropped outright).
      let longest = 0;
      messages.forEach((m, i) => {
        if (m.line.length > messages[longest]!.line.length) longest = i;
      });
      const target = messages[longest]!;
      const current = tokenizer.count(target.line);
      const keep = current - excess - 1;
      if (keep <= 4) return messages.filter((_, i) => i !== longest);
      return messages.map((m, i) =>
        i === longest ? { ...m, line: `${tokenizer.truncate(m.line, keep)}…` } : m,
      );
    }
  };

  /**
   * Takes at least `excess` tokens off summary lines: the oldest lines go first; the last one left
   * is cut short.
   */
  function shortenLines(lines: string[], excess: number): string[] {
    const out = [...lines];
    let remaining = excess;
    while (out.length > 1 && remaining > 0) remaining -= tokenizer.count(out.shift()!) + LINE_OVERHEAD;
    if (remaining <= 0) return out;
    const last = out[0]!;
    const keep = tokenizer.count(last) - remaining - 1;
    return keep > 4 ? [`${tokenizer.truncate(last, keep)}…`] : [];
  }

  async function loadFacts(
    scope: Scope,
    accessLevel: number,
    query: string | undefined,
    now: number,
    explain: ExplainEntry[],
  ): Promise<FactCandidate[]> {
    const { current, shadowed } = await loadCurrentFacts({ store, scope, accessLevel });
    for (const s of shadowed) {
      explain.push({
        layer: 'facts',
        id: s.fact.id,
        tokens: 0,
        reason: `shadowed by ${s.by.id}, the same key at a more specific scope`,
        included: false,
      });
    }
    return scoreFacts({ facts: current, ...(query ? { query } : {}), now, policy });
  }

  function longTermCandidates(
    facts: FactCandidate[],
    episodes: EpisodeRetrieval | undefined,
    graph: GraphRetrieval | undefined,
  ): LongTermCandidate[] {
    const out: LongTermCandidate[] = [];
    for (const f of facts) {
      out.push({
        layer: 'facts',
        id: f.fact.id,
        tokens: countLine(f.text) + LINE_OVERHEAD,
        value: f.value,
        fact: f,
      });
    }
    for (const e of episodes?.selected ?? []) {
      out.push({
        layer: 'episodes',
        id: e.episode.id,
        tokens: countLine(e.text) + LINE_OVERHEAD,
        value: e.value,
        episode: e,
      });
    }
    for (const p of graph?.paths ?? []) {
      out.push({
        layer: 'graph',
        id: p.id,
        tokens: countLine(p.text) + LINE_OVERHEAD,
        value: p.value,
        path: p,
      });
    }
    return out;
  }

  function workingLines(working: WorkingMemory, layers: Set<Layer>) {
    const messages = layers.has('working')
      ? working.messages.map((m) => ({ message: m, line: working.lines.get(m.id) ?? '' }))
      : [];
    let summary = working.summary
      ? working.summary
          .split('\n')
          .map((l) => escapeMemoryText(l))
          .filter(Boolean)
      : [];
    const summaryTokens = summary.reduce((s, l) => s + tokenizer.count(l) + LINE_OVERHEAD, 0);
    if (summaryTokens > working.summaryBudget) {
      summary = shortenLines(summary, summaryTokens - working.summaryBudget);
    }
    return {
      messages,
      summary,
      messageTokens: messages.reduce((s, m) => s + (working.tokens.get(m.message.id) ?? 0), 0),
      summaryTokens: summary.reduce((s, l) => s + tokenizer.count(l) + LINE_OVERHEAD, 0),
    };
  }
}
