import { mergeConfig } from 'vitest/config';
import { packageConfig } from '../../vitest.shared.ts';

// The benchmark's metrics are tested too (bench/*.test.ts).
export default mergeConfig(packageConfig(), {
  test: { include: ['src/**/*.test.ts', 'bench/**/*.test.ts'] },
});
