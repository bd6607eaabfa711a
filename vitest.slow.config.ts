import { defineConfig } from 'vitest/config';
import { SLOW_FILES } from './vitest.slow-files.js';

export default defineConfig({
  test: {
    include: ['test/slow/**/*.test.ts', ...SLOW_FILES],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at once (vitest's default on two cores is one): the rest of the slow files mostly wait on loopback
    // servers and child processes, so they fill the cores the crash-safety and fault suites leave idle.
    maxWorkers: 2,
  },
});
