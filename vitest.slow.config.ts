import { defineConfig } from 'vitest/config';
import { SLOW_FILES } from './vitest.slow-files.js';

export default defineConfig({
  test: {
    include: ['test/slow/**/*.test.ts', ...SLOW_FILES],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
