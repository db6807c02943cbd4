import { defineConfig } from 'vitest/config';

/**
 * Shared test config: workspace packages resolve to their TypeScript source through the
 * `@strata-memory/source` export condition, so tests never wait for a build.
 */
export const sourceConditions = ['@strata-memory/source'];

export function packageConfig(options: { integration?: boolean; timeoutMs?: number } = {}) {
  return defineConfig({
    resolve: { conditions: [...sourceConditions, 'module', 'node', 'development|production'] },
    ssr: { resolve: { conditions: [...sourceConditions, 'module', 'node', 'development|production'] } },
    test: {
      include: options.integration
        ? ['src/**/*.int.test.ts', 'test/**/*.int.test.ts']
        : ['src/**/*.test.ts', 'test/**/*.test.ts'],
      exclude: options.integration ? ['**/node_modules/**'] : ['**/node_modules/**', '**/*.int.test.ts'],
      testTimeout: options.timeoutMs ?? 20_000,
      hookTimeout: options.timeoutMs ?? 60_000,
      typecheck: { enabled: false },
    },
  });
}
