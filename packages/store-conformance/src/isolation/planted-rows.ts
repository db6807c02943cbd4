import type { Scope } from '@strata-memory/core/store';
import { keyOf } from './scope-walls.ts';

/** The kinds of rows a world plants; state, ledger, message and thread rows get ids made of their keys. */
export type RowKind =
  | 'episode'
  | 'fact'
  | 'node'
  | 'edge'
  | 'review'
  | 'audit'
  | 'state'
  | 'ledger'
  | 'message'
  | 'thread';

/** One row the world wrote and where it must live, kept up to date as writes and forget change it. */
export interface Row {
  kind: RowKind;
  id: string;
  scope: Scope;
  accessLevel: number;
  alive: boolean;
  /** Facts: their status; nodes and edges: `active`. */
  status?: string;
  /** Facts: entity type, entity id and key; state and ledger: the key; messages: the message id. */
  key?: string;
  /** Nodes: type, name and aliases; edges: relation and ends. */
  type?: string;
  names?: string[];
  relation?: string;
  from?: string;
  to?: string;
  /** Episodes and messages: the text. */
  text?: string;
}

export const stateRowId = (scope: Scope, key: string) => `state ${keyOf(scope)} ${key}`;
export const ledgerRowId = (scope: Scope, key: string) => `ledger ${keyOf(scope)} ${key}`;
export const messageRowId = (scope: Scope, id: string) => `message ${keyOf(scope)} ${id}`;
export const threadRowId = (scope: Scope) => `thread ${keyOf(scope)}`;
export const factKeyOf = (f: { entityType: string; entityId: string; key: string }) =>
  JSON.stringify([f.entityType, f.entityId, f.key]);

/** Every row a world planted, by id. */
export class PlantedRows {
  readonly byId = new Map<string, Row>();

  add(row: Omit<Row, 'alive'>): Row {
    const stored = { ...row, alive: true };
    this.byId.set(row.id, stored);
    return stored;
  }

  get(id: string): Row | undefined {
    return this.byId.get(id);
  }

  /** Rows of `kind`, alive or not. */
  all(kind: RowKind): Row[] {
    return [...this.byId.values()].filter((row) => row.kind === kind);
  }

  alive(kind: RowKind): Row[] {
    return this.all(kind).filter((row) => row.alive);
  }
}
