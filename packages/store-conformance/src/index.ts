import { describe } from 'vitest';
import type { StoreConformanceOptions } from './options.ts';
import { auditSuite } from './suites/audit.ts';
import { capabilitiesSuite } from './suites/capabilities.ts';
import { episodesSuite } from './suites/episodes.ts';
import { factListingSuite } from './suites/fact-listing.ts';
import { factsSuite } from './suites/facts.ts';
import { forgetSuite } from './suites/forget.ts';
import { graphSuite } from './suites/graph.ts';
import { inputRulesSuite } from './suites/input-rules.ts';
import { invalidInputSuite } from './suites/invalid-input.ts';
import { isolationPropertySuite } from './suites/isolation-property.ts';
import { keywordSearchSuite } from './suites/keyword-search.ts';
import { ledgerSuite } from './suites/ledger.ts';
import { payloadsSuite } from './suites/payloads.ts';
import { restoreSuite } from './suites/restore.ts';
import { reviewSuite } from './suites/review.ts';
import { scopesSuite } from './suites/scopes.ts';
import { stateSuite } from './suites/state.ts';
import { threadListingSuite } from './suites/thread-listing.ts';
import { threadsSuite } from './suites/threads.ts';
import { transactionsSuite } from './suites/transactions.ts';
import { vectorSearchSuite } from './suites/vector-search.ts';

export type { StoreConformanceOptions, ToggleableCapability } from './options.ts';

/**
 * Registers the Store conformance suite for one driver. Call it at the top level of a test file:
 *
 * ```ts
 * runStoreConformance({ name: 'sqlite', create: async () => sqliteStore({ path: ':memory:' }) });
 * ```
 */
export function runStoreConformance(options: StoreConformanceOptions): void {
  describe(`store conformance: ${options.name}`, () => {
    threadsSuite(options);
    threadListingSuite(options);
    episodesSuite(options);
    keywordSearchSuite(options);
    vectorSearchSuite(options);
    factsSuite(options);
    factListingSuite(options);
    graphSuite(options);
    stateSuite(options);
    ledgerSuite(options);
    reviewSuite(options);
    restoreSuite(options);
    auditSuite(options);
    forgetSuite(options);
    isolationPropertySuite(options);
    scopesSuite(options);
    transactionsSuite(options);
    invalidInputSuite(options);
    inputRulesSuite(options);
    payloadsSuite(options);
    capabilitiesSuite(options);
  });
}
