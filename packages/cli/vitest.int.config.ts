import { packageConfig } from '../../vitest.shared.ts';

export default packageConfig({ integration: true, timeoutMs: 120_000 });
