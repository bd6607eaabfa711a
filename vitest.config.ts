import { defineConfig } from 'vitest/config';
import { SLOW_FILES } from './vitest.slow-files.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['test/slow/**', ...SLOW_FILES, 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
