import type { Layer, RecalledItem } from '../engine/types.ts';
import type { FactRecord, JsonValue } from '../store/records.ts';

/** What each memory tool returns to the model: small, JSON-serialisable views of the engine's records. */

/** A fact as the model sees it in a tool result. */
export interface FactView {
  id: string;
  entityType: string;
  entity: string;
  key: string;
  value: JsonValue;
  version: number;
  confidence: number;
  status: FactRecord['status'];
}

/** A recalled item as the model sees it: what it is, why it matched, and its id for `forget`. */
export interface RecalledItemView {
  id: string;
  layer: RecalledItem['layer'];
  text: string;
  reason: string;
  score: number;
}

export type RememberOutput =
  | {
      stored: 'fact' | 'review' | 'nothing';
      /** True when the value was already current (confirmed, not duplicated). */
      confirmed: boolean;
      fact?: FactView;
      previous?: FactView;
      /** Set when the fact went to the review queue instead of the fact store. */
      reviewId?: string;
    }
  | {
      stored: 'note';
      /** The episodes that hold the note: the one written, or the one it repeats. */
      episodeIds: string[];
      /** 1 when the note repeats an episode already in memory (and was folded into it). */
      duplicates: number;
      /** Facts read from the note. */
      facts: FactView[];
    };

export interface RecallOutput {
  /** The rendered context block. */
  context: string;
  items: RecalledItemView[];
}

export interface ForgetOutput {
  deleted: boolean;
  layer?: Layer;
}

export interface CorrectOutput {
  fact: FactView;
  previous?: FactView;
}

export function factView(fact: FactRecord): FactView {
  return {
    id: fact.id,
    entityType: fact.entityType,
    entity: fact.entityId,
    key: fact.key,
    value: fact.value,
    version: fact.version,
    confidence: fact.confidence,
    status: fact.status,
  };
}

export function recalledItemView(item: RecalledItem): RecalledItemView {
  return { id: item.id, layer: item.layer, text: item.text, reason: item.reason, score: item.scores.final };
}
