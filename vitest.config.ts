import { defineConfig } from 'vitest/config';
import { SLOW_FILES } from './vitest.slow-files.js';

/**
 * Folders whose tests share one module graph per worker (`isolate: false`): they call converge's code in this
 * process (or spawn the CLI) and leave nothing behind (no environment variables, working directory, global dispatcher or mocks;
 * servers they start are closed in the test). Importing converge once per worker instead of once per file saves
 * vitest's transform and import, about 5 s a file. Every other folder keeps a fresh module graph per file.
 */
const SHARED_MODULES = ['model', 'manifest', 'kinds', 'views', 'diagnostics', 'lint', 'async', 'engine', 'http', 'providers', 'login', 'sandbox', 'library', 'state', 'secrets'].map((d) => `test/${d}/**/*.test.ts`);
const EXCLUDE = ['test/slow/**', ...SLOW_FILES, 'node_modules/**', 'dist/**'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two files at once even on two cores (vitest's default is cores − 1): most quick tests wait on loopback
    // servers and child processes, not on the CPU, so the suite takes about half the time.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED_MODULES, exclude: EXCLUDE, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: [...EXCLUDE, ...SHARED_MODULES] } },
    ],
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
