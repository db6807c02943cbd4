import type { StrataConfig } from '../open-memory.ts';
import type { CaseFile } from './case-file-schema.ts';
import { type EvalStoreKind, freshStores } from './fresh-store.ts';
import { type CaseResult, runCase } from './run-case.ts';

/** The outcome of a case file: every case's result and the totals. */
export interface EvalReport {
  file: string;
  store: string;
  total: number;
  passed: number;
  failed: number;
  cases: CaseResult[];
}

/**
 * Runs every case of a file in order, each on a fresh store of `kind` with the user's config, and
 * removes the stores afterwards. The embedder is made once and shared by the cases (the offline one
 * loads its model once).
 */
export async function runEval(args: {
  file: string;
  cases: CaseFile;
  config: StrataConfig;
  embedder: StrataConfig['embedder'];
  kind: EvalStoreKind;
  storeDescription: string;
  onCase?: (index: number, name: string) => void;
}): Promise<EvalReport> {
  const results: CaseResult[] = [];
  const stores = freshStores(args.kind);
  try {
    for (const [index, evalCase] of args.cases.cases.entries()) {
      args.onCase?.(index, evalCase.name);
      results.push(
        await runCase({
          evalCase,
          defaults: args.cases.defaults,
          config: args.config,
          embedder: args.embedder,
          fresh: stores.fresh,
        }),
      );
    }
  } finally {
    await stores.close();
  }
  const passed = results.filter((r) => r.passed).length;
  return {
    file: args.file,
    store: args.storeDescription,
    total: results.length,
    passed,
    failed: results.length - passed,
    cases: results,
  };
}
