import { z } from 'zod/v4';
import type {
  ExplainEntry,
  Layer,
  MemoryContext,
  RecalledEpisode,
  RecalledFact,
  RecalledItem,
  RecalledPath,
} from '../engine/types.ts';
import type { Scope } from '../scope/scope.ts';
import { parseArgs } from '../store/define-store.ts';
import type { Block } from './context-block.ts';
import { explanation } from './explanation.ts';
import { toRecalledItem } from './long-term-items.ts';
import type { SummaryView } from './summary-view.ts';

const renderOptionsSchema = z
  .object({ omit: z.array(z.enum(['working', 'summary', 'facts', 'episodes', 'graph'])).optional() })
  .strict()
  .optional();

const BUDGET = 'left out: did not fit the token budget';

/**
 * The `MemoryContext` a recall returns, from its assembled block: sections and items hold exactly
 * what `render()` shows, and `explain()` accounts for every candidate, included or not.
 */
export function buildMemoryContext(args: {
  scope: Scope;
  query?: string;
  block: Block;
  /** Candidates left out by the relevance bar, with why. */
  belowBar?: Array<{ item: Block['excluded'][number]; reason: string }>;
  summary?: SummaryView;
  /** Entries gathered while loading (working memory, retrieval notes and drops). */
  explain: ExplainEntry[];
  countLine: (text: string) => number;
}): MemoryContext {
  const { block, explain } = args;
  const shown = block.rendered !== '';
  const sections: MemoryContext['sections'] = { working: [], facts: [], episodes: [], graph: [] };
  const items: RecalledItem[] = [];
  for (const c of shown ? block.included : []) {
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
      ...(c.rule === undefined ? {} : { rule: c.rule }),
      text: item.text,
      included: true,
    });
  }
  const leftOut = (c: Block['excluded'][number], why: string) => {
    const item = toRecalledItem(c);
    explain.push({
      layer: item.layer,
      id: item.id,
      tokens: item.tokens,
      scores: item.scores,
      reason: `${item.reason}; left out: ${why}`,
      rule: why,
      text: item.text,
      included: false,
    });
  };
  for (const b of args.belowBar ?? []) leftOut(b.item, b.reason);
  for (const d of block.duplicates) leftOut(d.item, d.reason);
  for (const c of block.excluded) leftOut(c, 'did not fit the token budget');

  if (shown) {
    sections.working = block.messages.map((m) => m.message);
    if (block.summaryLines.length > 0) sections.summary = block.summaryLines.join('\n');
  }
  for (const entry of explain) {
    if (entry.layer !== 'working' || !entry.included) continue;
    const restatedAs = block.restatedMessages.get(entry.id);
    if (restatedAs) {
      entry.included = false;
      entry.rule = `shown as ${restatedAs.map((l) => `"${l}"`).join(', ')}`;
      entry.reason = `${entry.reason}; left out: ${entry.rule}`;
    } else if (block.trimmedMessages.has(entry.id)) {
      entry.included = false;
      entry.reason = `${entry.reason}; ${BUDGET}`;
    }
  }
  if (args.summary && args.summary.sentences.length > 0) explain.push(summaryEntry(args));

  const rendered = block.rendered;
  const renders = new Map<string, string>([['', rendered]]);
  const finalExplain = explain.map((e) => ({ ...e }));
  return {
    scope: args.scope,
    ...(args.query === undefined ? {} : { query: args.query }),
    sections,
    items,
    tokens: block.tokens,
    render(options) {
      const parsed = parseArgs(renderOptionsSchema, options, 'MemoryContext.render: options');
      const omit = [...new Set(parsed?.omit ?? [])].sort();
      const key = omit.join(',');
      let text = renders.get(key);
      if (text === undefined) {
        text = block.render(new Set<Layer>(omit));
        renders.set(key, text);
      }
      return text;
    },
    explain: () =>
      explanation(finalExplain.map((e) => ({ ...e, ...(e.scores ? { scores: { ...e.scores } } : {}) }))),
  };
}

function summaryEntry(args: {
  scope: Scope;
  block: Block;
  summary?: SummaryView;
  countLine: (text: string) => number;
}): ExplainEntry {
  const { block } = args;
  const view = args.summary!;
  const id = `summary:${args.scope.threadId}`;
  const total = view.sentences.length;
  const kept = block.summaryKept.size;
  if (block.summaryLines.length === 0 || block.rendered === '') {
    const why =
      block.summaryInEpisodes === total && total > 0
        ? 'left out: the episodes shown hold every sentence of it'
        : BUDGET;
    return { layer: 'summary', id, tokens: 0, reason: `rolling summary; ${why}`, included: false };
  }
  const dropped = view.sentences.filter((s) => !block.summaryKept.has(s.index));
  const forBudget = dropped.length - block.summaryInEpisodes;
  const protectedDropped = dropped.filter((s) => s.protected).length;
  const notes: string[] = [];
  if (forBudget > 0) {
    notes.push(
      `${forBudget} of ${total} sentence(s) left out to fit the budget, ${
        protectedDropped > 0
          ? `${protectedDropped} of them with literals no fact holds`
          : 'every sentence with a literal no fact holds kept'
      }`,
    );
  }
  if (block.summaryInEpisodes > 0) {
    notes.push(`${block.summaryInEpisodes} sentence(s) not repeated: an episode shown holds them`);
  }
  const tokens = block.summaryLines.reduce((sum, line) => sum + args.countLine(line) + 2, 0);
  return {
    layer: 'summary',
    id,
    tokens,
    reason: `rolling summary of messages that left the window, ${kept} sentence(s)${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`,
    included: true,
  };
}
