import type { z } from 'zod/v4';
import type { Scope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { LIMITS } from '../store/limits.ts';
import type { AuditEntry, Metadata } from '../store/records.ts';
import type { newAuditEntrySchema } from '../store/schemas.ts';

export type NewAuditEntry = z.input<typeof newAuditEntrySchema>;

/** Collects an operation's audit entries and writes them together with its other writes. */
export class AuditTrail {
  private readonly entries: NewAuditEntry[] = [];
  private readonly defaults: { actor: string; at: number };

  constructor(defaults: { actor: string; at: number }) {
    this.defaults = defaults;
  }

  add(entry: {
    scope: Scope;
    action: string;
    subjectType?: string;
    subjectId?: string;
    details?: Metadata;
  }): void {
    this.entries.push({
      ...entry,
      actor: this.defaults.actor,
      at: this.defaults.at,
      details: entry.details ?? {},
    });
  }

  get size(): number {
    return this.entries.length;
  }

  /** Appends every collected entry (in batches of the store's limit). */
  async flush(tx: Pick<StoreTransaction, 'audit'>): Promise<AuditEntry[]> {
    const written: AuditEntry[] = [];
    for (let i = 0; i < this.entries.length; i += LIMITS.maxBatch) {
      written.push(...(await tx.audit.append({ entries: this.entries.slice(i, i + LIMITS.maxBatch) })));
    }
    this.entries.length = 0;
    return written;
  }
}
