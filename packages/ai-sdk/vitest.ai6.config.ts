import { defineConfig, mergeConfig } from 'vitest/config';
import { packageConfig } from '../../vitest.shared.ts';

/** The same suite with `ai` resolved to ai 6 (the `ai-v6` dev dependency) in the adapter and the tests. */
export default mergeConfig(
  packageConfig({ results: 'unit-ai6' }),
  defineConfig({
    test: { env: { STRATA_EXPECT_AI_MAJOR: '6' } },
    resolve: {
      alias: [
        { find: /^ai$/, replacement: 'ai-v6' },
        { find: /^ai\/test$/, replacement: 'ai-v6/test' },
      ],
    },
  }),
);
