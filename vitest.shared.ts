import { defineConfig } from 'vitest/config';

/**
 * Shared test config: workspace packages resolve to their TypeScript source through the
 * `@strata-memory/source` export condition, so tests never wait for a build.
 */
export const sourceConditions = ['@strata-memory/source'];

export interface PackageTestOptions {
  /** Integration tests (`*.int.test.ts`, the `test:int` task) instead of unit tests. */
  integration?: boolean;
  timeoutMs?: number;
  /**
   * Name of this run's results file in the package's `.vitest/` folder (default `unit` or `int`),
   * which the repository's `pnpm test` sums into one line. A package with two runs of one kind
   * names the second.
   */
  results?: string;
}

export function packageConfig(options: PackageTestOptions = {}) {
  const results = options.results ?? (options.integration ? 'int' : 'unit');
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
      // What a passing test prints (an expected error a library logs) stays out of the output.
      silent: 'passed-only',
      reporters: ['default', ['json', { outputFile: `.vitest/${results}.json` }]],
    },
  });
}
