import { defineConfig } from 'vitest/config';
import { SLOW_FILES } from './vitest.slow-files.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['test/slow/**', ...SLOW_FILES, 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two files at once even on two cores (vitest's default is cores − 1): most quick tests wait on loopback
    // servers and child processes, not on the CPU, so the suite takes about half the time.
    maxWorkers: 2,
    // `npm run coverage`: what the tests reach in this process and its workers. Code that only runs inside a
    // spawned CLI process is not counted, so moving a story in-process can only raise these figures.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // A figure even when a test fails (one timing out on a busy machine would otherwise leave no report).
      reportOnFailure: true,
    },
  },
});
