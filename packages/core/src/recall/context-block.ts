import type { Layer } from '../engine/types.ts';
import type { Tokenizer } from '../ports/ports.ts';
import type { MessageRecord } from '../store/records.ts';
import {
  escapeMemoryText,
  listItem,
  MEMORY_CLOSE,
  MEMORY_HEADER,
  MEMORY_OPEN,
  memoryBlockLines,
  type RenderSection,
  SECTION_TITLES,
} from '../text/render-context.ts';
import { packByRank, packByValue } from './budget-packer.ts';
import { restatedByFacts, ShownElsewhere } from './duplicate-content.ts';
import { blockFactLines } from './fact-selection.ts';
import { connectionLines, type LongTermCandidate, lineOf } from './long-term-items.ts';
import { nextToDrop, type SummaryView, summaryLines } from './summary-view.ts';

/**
 * Fitting one recall into its token budget.
 *
 * 1. The working window (recent messages, chosen by `loadWorkingMemory` within its share) and the
 *    rolling summary come first. Episodes the window shows are no longer candidates, nor are
 *    episodes the summary holds word for word (their summary sentences are kept instead: the
 *    cheaper faithful form). The summary is shrunk to its own share by dropping whole sentences
 *    that carry no unstored literal and stand in for no episode; the others are kept.
 * 2. Facts are reserved next: by value (query relevance first), up to `factShare` of what the
 *    working memory leaves.
 * 3. Episodes, graph paths and the facts that did not fit the reservation share the rest, packed
 *    by value per token (or by rank).
 * 4. The block is rendered and counted with the tokenizer; while it is over budget, whole pieces
 *    are removed in this order: episodes and graph paths (least valuable first), unpinned recent
 *    messages (oldest first), unprotected summary sentences, protected summary sentences (oldest
 *    first), reserved facts (least valuable first); then the longest pinned message is shortened.
 *    Counting the whole block again after each round (from cached line counts when the tokenizer
 *    allows, see `TokenCounter.countLines`) keeps `render()` within the budget exactly.
 *    Removal is greedy, so what was removed and fits again is then put back (most valuable first).
 * 5. A summary sentence that an included episode shows word for word is left out of the summary.
 * 6. The conversation's last messages, when they only restate included facts (they stated or
 *    confirmed them and hold no word beyond them and the words they were read from), are left out:
 *    the facts show them. An earlier message stays, since the conversation goes on from it.
 */

/** Each listed line costs its marker (`- `) and line break on top of its own tokens. */
export const LINE_OVERHEAD = 2;

/**
 * What listing `text` adds to a block: the line with its marker and line break, counted as one
 * (the same string the block count reads back from the cache).
 */
export function listedTokens(countLine: (text: string) => number, text: string): number {
  return countLine(`${listItem(text)}\n`);
}

export interface WorkingLine {
  message: MessageRecord;
  /** Rendered (escaped). */
  line: string;
  /** Tokens of the line, marker included. */
  tokens: number;
  pinned: boolean;
}

export interface BlockPlan {
  budget: number;
  /** Tokens the summary may take before protected sentences alone remain. */
  summaryBudget: number;
  messages: WorkingLine[];
  summary?: SummaryView;
  /** Candidate facts. */
  facts: LongTermCandidate[];
  /** Candidate episodes and graph paths. */
  others: LongTermCandidate[];
  factShare: number;
  packing: 'density' | 'rank';
  tokenPrior: number;
  /** The user the block is for: their own statements are shown without source and date. */
  viewerId?: string;
}

export interface Block {
  /** Included long-term items, best value first. */
  included: LongTermCandidate[];
  /** Candidates that did not fit. */
  excluded: LongTermCandidate[];
  /** Episodes left out because the working window or the summary shows them. */
  duplicates: Array<{ item: LongTermCandidate; reason: string }>;
  /** Working messages shown, by seq (a pinned line may be shortened). */
  messages: WorkingLine[];
  /** Ids of recent messages left out for the budget. */
  trimmedMessages: Set<string>;
  /** Recent messages left out because included facts show them, with those facts' lines. */
  restatedMessages: Map<string, string[]>;
  /** Summary sentences shown (indexes into the summary view). */
  summaryKept: Set<number>;
  /** Summary sentences left out because an included episode shows them word for word. */
  summaryInEpisodes: number;
  /** The summary lines shown (unescaped); empty when none. */
  summaryLines: string[];
  /** The whole block; '' when nothing fits. */
  rendered: string;
  tokens: number;
  /** The block without the given sections. */
  render(omit?: ReadonlySet<Layer>): string;
}

/** Token costs of the block's fixed parts, for one tokenizer. */
export interface BlockOverhead {
  /** Opening tag, header and closing tag with their line breaks. */
  frame: number;
  titles: Record<RenderSection, number>;
}

export function blockOverhead(tokenizer: Tokenizer): BlockOverhead {
  const titles = {} as Record<RenderSection, number>;
  for (const [section, title] of Object.entries(SECTION_TITLES) as [RenderSection, string][]) {
    titles[section] = tokenizer.count(title) + 1;
  }
  return { frame: tokenizer.count(`${MEMORY_OPEN}\n${MEMORY_HEADER}\n${MEMORY_CLOSE}`) + 1, titles };
}

type Removal =
  | { kind: 'item' | 'fact'; item: LongTermCandidate }
  | { kind: 'message'; line: WorkingLine }
  | { kind: 'sentence'; index: number };

interface State {
  /** Facts reserved first. */
  reserved: LongTermCandidate[];
  /** Other included items (episodes, graph paths, facts past the reservation), best value first. */
  packed: LongTermCandidate[];
  excluded: LongTermCandidate[];
  messages: WorkingLine[];
  trimmed: Set<string>;
  summaryKept: Set<number>;
}

export function assembleBlock(
  plan: BlockPlan,
  deps: {
    tokenizer: Tokenizer;
    countLine: (text: string) => number;
    /** Tokens of lines joined by line breaks (see `TokenCounter.countLines`). */
    countLines: (lines: readonly string[]) => number;
    overhead: BlockOverhead;
  },
): Block {
  const { tokenizer, countLine, countLines, overhead } = deps;
  const view = plan.summary;
  const sentenceTokens = (index: number) => countLine(view!.sentences[index]!.text) + 1;
  const summaryTokens = (kept: ReadonlySet<number>) => {
    if (!view || kept.size === 0) return 0;
    let total = 0;
    const lines = new Set<number>();
    for (const index of kept) {
      total += sentenceTokens(index);
      lines.add(view.sentences[index]!.line);
    }
    for (const line of lines) total += countLine(`${view.labels[line]}:`) + LINE_OVERHEAD;
    return total;
  };

  // 1. Working window and summary. Episodes the window shows are not candidates; nor are episodes
  // the summary holds word for word: the summary sentences (the cheaper form) are kept instead.
  const summaryKept = new Set(view?.sentences.map((s) => s.index) ?? []);
  const shownElsewhere = new ShownElsewhere({
    messages: plan.messages.map((m) => m.message),
    summarySentences: view?.sentences.map((s) => s.key) ?? [],
  });
  const duplicates: Block['duplicates'] = [];
  const others = plan.others.filter((c) => {
    const shown = c.layer === 'episodes' ? shownElsewhere.check(c.episode.episode) : undefined;
    if (!shown) return true;
    duplicates.push({ item: c, reason: shown.reason });
    const anchors = new Set(shown.sentences);
    for (const s of view?.sentences ?? []) if (anchors.has(s.key)) s.anchored = true;
    return false;
  });
  let summaryUsed = summaryTokens(summaryKept);
  while (view && summaryUsed > plan.summaryBudget) {
    const next = nextToDrop(view, summaryKept, false);
    if (!next) break;
    summaryKept.delete(next.index);
    summaryUsed = summaryTokens(summaryKept);
  }
  const messageTokens = plan.messages.reduce((sum, m) => sum + m.tokens, 0);
  const workingUsed =
    messageTokens +
    summaryUsed +
    (plan.messages.length > 0 ? overhead.titles.working : 0) +
    (summaryKept.size > 0 ? overhead.titles.summary : 0);
  const layersPresent = new Set([...plan.facts, ...others].map((c) => c.layer));
  const titles = [...layersPresent].reduce((sum, layer) => sum + overhead.titles[layer], 0);
  const longTerm = Math.max(0, plan.budget - overhead.frame - workingUsed - titles);

  // 2. Facts first, by value, up to their share.
  const reserve = Math.floor(longTerm * plan.factShare);
  const reserved: LongTermCandidate[] = [];
  const rest: LongTermCandidate[] = [...others];
  let reservedUsed = 0;
  for (const fact of [...plan.facts].sort((a, b) => b.value - a.value)) {
    if (fact.value > 0 && reservedUsed + fact.tokens <= reserve) {
      reserved.push(fact);
      reservedUsed += fact.tokens;
    } else rest.push(fact);
  }

  // 3. Everything else by value per token in what is left.
  const packed =
    plan.packing === 'density'
      ? packByValue({ items: rest, budget: longTerm - reservedUsed, tokenPrior: plan.tokenPrior })
      : packByRank(rest, longTerm - reservedUsed);

  const state: State = {
    reserved,
    packed: [...packed.included].sort((a, b) => b.value - a.value),
    excluded: [...packed.excluded],
    messages: [...plan.messages],
    trimmed: new Set(),
    summaryKept,
  };

  // 4. Render, count, trim whole pieces until it fits; then put back what fits again.
  const removed: Removal[] = [];
  let lines = renderState(state, view, plan.viewerId);
  let tokens = countLines(lines);
  const trim = () => {
    while (tokens > plan.budget) {
      let excess = tokens - plan.budget;
      let progressed = false;
      while (excess > 0) {
        const saved = removeOne(state, excess);
        if (saved === undefined) break;
        progressed = true;
        excess -= saved;
      }
      if (!progressed) return;
      lines = renderState(state, view, plan.viewerId);
      tokens = countLines(lines);
    }
  };
  trim();
  if (removed.length > 0 && tokens <= plan.budget && refill(plan.budget - tokens)) {
    lines = renderState(state, view, plan.viewerId);
    tokens = countLines(lines);
    trim();
  }
  if (tokens > plan.budget) {
    // Not even the pinned messages fit: show nothing rather than break the budget.
    state.excluded.push(...state.packed, ...state.reserved);
    state.packed = [];
    state.reserved = [];
    for (const m of state.messages) state.trimmed.add(m.message.id);
    state.messages = [];
    state.summaryKept.clear();
    lines = [];
    tokens = 0;
  }

  // 5. Summary sentences an included episode shows word for word are not repeated.
  let summaryInEpisodes = 0;
  if (view && state.summaryKept.size > 0) {
    const shown = episodeText(state.packed);
    for (const s of view.sentences) {
      if (state.summaryKept.has(s.index) && s.key.length > 0 && shown.includes(` ${s.key} `)) {
        state.summaryKept.delete(s.index);
        summaryInEpisodes++;
      }
    }
    if (summaryInEpisodes > 0) {
      lines = renderState(state, view, plan.viewerId);
      tokens = countLines(lines);
    }
  }

  // 6. The conversation's last messages, when they only restate included facts, are not repeated
  // beside them (an earlier message stays: the conversation goes on from it).
  const restatements = restatedByFacts(
    state.messages.map((m) => m.message),
    state.reserved.concat(state.packed).flatMap((c) => (c.layer === 'facts' ? [c.fact] : [])),
  );
  const restated = new Map<string, string[]>();
  for (
    let last = state.messages.at(-1);
    last && restatements.has(last.message.id);
    last = state.messages.at(-1)
  ) {
    restated.set(last.message.id, restatements.get(last.message.id)!);
    state.messages.pop();
  }
  if (restated.size > 0) {
    lines = renderState(state, view, plan.viewerId);
    tokens = countLines(lines);
  }

  const included = [...state.reserved, ...state.packed].sort((a, b) => b.value - a.value);
  const rendered = lines.join('\n');
  const finalView = view;
  const finalState = state;
  return {
    included,
    excluded: state.excluded,
    duplicates,
    messages: state.messages,
    trimmedMessages: state.trimmed,
    restatedMessages: restated,
    summaryKept: state.summaryKept,
    summaryInEpisodes,
    summaryLines: view ? summaryLines(view, state.summaryKept) : [],
    rendered,
    tokens,
    render: (omit) =>
      rendered === '' ? '' : renderState(finalState, finalView, plan.viewerId, omit).join('\n'),
  };

  /** Removes the next piece in trimming order; returns the tokens it is estimated to free. */
  function removeOne(s: State, excess: number): number | undefined {
    const item = s.packed.pop();
    if (item) {
      s.excluded.push(item);
      removed.push({ kind: 'item', item });
      return item.tokens;
    }
    const unpinned = s.messages.findIndex((m) => !m.pinned);
    if (unpinned >= 0) {
      const [gone] = s.messages.splice(unpinned, 1);
      s.trimmed.add(gone!.message.id);
      removed.push({ kind: 'message', line: gone! });
      return gone!.tokens;
    }
    if (view && s.summaryKept.size > 0) {
      const next = nextToDrop(view, s.summaryKept, true)!;
      s.summaryKept.delete(next.index);
      removed.push({ kind: 'sentence', index: next.index });
      return sentenceTokens(next.index);
    }
    const fact = s.reserved.pop();
    if (fact) {
      s.excluded.push(fact);
      removed.push({ kind: 'fact', item: fact });
      return fact.tokens;
    }
    return shortenPinned(s, excess);
  }

  /**
   * Trimming removes greedily, so it can remove more than it had to (recent messages before a
   * summary sentence too long to keep anyway). Puts back removed pieces, last removed (most
   * valuable) first, while their estimated tokens fit in `room`; recent messages only newest
   * first and without gaps. Returns whether anything was put back.
   */
  function refill(room: number): boolean {
    let left = room;
    let messagesClosed = false;
    let restored = false;
    for (const r of [...removed].reverse()) {
      const cost =
        r.kind === 'message'
          ? r.line.tokens
          : r.kind === 'sentence'
            ? sentenceTokens(r.index)
            : r.item.tokens;
      if (cost > left) {
        if (r.kind === 'message') messagesClosed = true;
        continue;
      }
      if (r.kind === 'message') {
        if (messagesClosed) continue;
        state.messages.push(r.line);
        state.messages.sort((a, b) => a.message.seq - b.message.seq);
        state.trimmed.delete(r.line.message.id);
      } else if (r.kind === 'sentence') state.summaryKept.add(r.index);
      else {
        state.excluded.splice(state.excluded.indexOf(r.item), 1);
        if (r.kind === 'fact') state.reserved.push(r.item);
        else state.packed.push(r.item);
      }
      left -= cost;
      restored = true;
    }
    state.reserved.sort((a, b) => b.value - a.value);
    state.packed.sort((a, b) => b.value - a.value);
    removed.length = 0;
    return restored;
  }

  /** Shortens the longest pinned line by `excess` tokens, or drops it when little would be left. */
  function shortenPinned(s: State, excess: number): number | undefined {
    if (s.messages.length === 0) return undefined;
    let longest = 0;
    s.messages.forEach((m, i) => {
      if (m.tokens > s.messages[longest]!.tokens) longest = i;
    });
    const target = s.messages[longest]!;
    const current = countLine(target.line);
    const keep = current - excess - 1;
    if (keep <= 4) {
      s.messages.splice(longest, 1);
      s.trimmed.add(target.message.id);
      return target.tokens;
    }
    const line = `${tokenizer.truncate(target.line, keep)}…`;
    const tokens = listedTokens(countLine, line);
    s.messages[longest] = { ...target, line, tokens };
    return Math.max(1, target.tokens - tokens);
  }
}

function renderState(
  s: State,
  view: SummaryView | undefined,
  viewerId: string | undefined,
  omit?: ReadonlySet<Layer>,
): string[] {
  const included = [...s.reserved, ...s.packed].sort((a, b) => b.value - a.value);
  const show = (layer: Layer) => !omit?.has(layer);
  const lines = (layer: LongTermCandidate['layer']) =>
    show(layer) ? included.filter((c) => c.layer === layer).map((c) => lineOf(c)) : [];
  return memoryBlockLines({
    facts: show('facts')
      ? blockFactLines(
          included.flatMap((c) => (c.layer === 'facts' ? [c.fact] : [])),
          viewerId,
        )
      : [],
    summary: view && show('summary') ? summaryLines(view, s.summaryKept).map((l) => escapeMemoryText(l)) : [],
    episodes: lines('episodes'),
    graph: show('graph')
      ? connectionLines(
          included.filter((c): c is Extract<LongTermCandidate, { layer: 'graph' }> => c.layer === 'graph'),
        )
      : [],
    working: show('working') ? s.messages.map((m) => m.line) : [],
  });
}

/** The included episodes' texts as one string of normalised words, padded with spaces. */
function episodeText(items: LongTermCandidate[]): string {
  const parts: string[] = [];
  for (const c of items) {
    if (c.layer !== 'episodes') continue;
    parts.push(
      c.episode.episode.text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu)
        ?.join(' ') ?? '',
    );
  }
  return ` ${parts.join(' | ')} `;
}
