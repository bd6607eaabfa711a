import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/**
 * The files of src/ that load before any code of a module runs: its static value imports, followed
 * transitively (type-only imports are erased by the compiler, dynamic ones wait for the code that calls them).
 */
function loadedAtStart(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gms)) {
      visit(resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')));
    }
  };
  visit(resolve(root, entry));
  return [...seen].map((f) => relative(root, f).split('\\').join('/')).sort();
}

describe('converge --version', () => {
  // Every run of the CLI pays for what main.ts loads before commander has read the arguments: the host,
  // the renderers and the redactor wait for the first command's action.
  it('loads only the entry point and its argument helpers before reading the arguments', () => {
    expect(loadedAtStart('src/cli/main.ts')).toEqual([
      'src/cli/closed-pipe.ts',
      'src/cli/heap-tuning.ts',
      'src/cli/help-examples.ts',
      'src/cli/main.ts',
      'src/cli/single-dash.ts',
    ]);
  });

  it('sees a static import of the host as loaded at start', () => {
    // The walker itself: host.ts imports the renderers statically.
    expect(loadedAtStart('src/cli/host.ts')).toContain('src/views/apply-progress.ts');
  });
});
