import { defineConfig } from 'vitest/config';
import { SLOW_FILES } from './vitest.slow-files.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['test/slow/**', ...SLOW_FILES, 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // `npm run coverage`: what the tests reach in this process and its workers. Code that only runs inside a
    // spawned CLI process is not counted, so moving a story in-process can only raise these figures.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
    },
  },
});
