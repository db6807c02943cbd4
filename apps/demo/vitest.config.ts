import { packageConfig } from '../../vitest.shared.ts';

/** The demo test runs the whole demo twice in child processes (the offline embedder loads each time). */
export default packageConfig({ timeoutMs: 120_000 });
