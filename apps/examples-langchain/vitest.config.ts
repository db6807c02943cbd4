import { packageConfig } from '../../vitest.shared.ts';

/** The chat test starts real processes that load the offline embedder: allow them time. */
export default packageConfig({ timeoutMs: 120_000 });
