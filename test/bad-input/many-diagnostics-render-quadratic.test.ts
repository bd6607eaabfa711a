import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/types.js';
import { renderDiagnosticsText } from '../../src/views/diagnostics.js';

/*
 * Regression: each diagnostic's source line was found by scanning the file from the top, so a file of
 * 60 000 duplicate documents (4 MB, under the size limit) took 220 s to print its diagnostics.
 * Lines are now looked up in an index built once per render. bench/hostile-input.mjs times it; here the
 * test's own timeout is the bound.
 */
describe('rendering many diagnostics of one file was quadratic', () => {
  it('20 000 diagnostics over an 80 000-line file render, each quoting its own line', () => {
    const lines = Array.from({ length: 80_000 }, (_, i) => `name: object-${i + 1}`);
    const text = lines.join('\r\n') + '\r\n';
    const diags: Diagnostic[] = Array.from({ length: 20_000 }, (_, k) => {
      const line = 4 * k + 2;
      return { severity: 'error', code: 'manifest.duplicate', summary: `dup ${line}`, range: { file: 'big.yaml', start: { line, col: 7 }, end: { line, col: 20 } } };
    });
    const out = renderDiagnosticsText(diags, { sources: new Map([['big.yaml', text]]), color: false });
    expect(out).toContain('  2 | name: object-2\n');
    expect(out).toContain('  79998 | name: object-79998\n');
    expect(out).not.toContain('\r');
  });

  it('a line past the end of the file quotes nothing', () => {
    const out = renderDiagnosticsText([{ severity: 'error', code: 'x', summary: 's', range: { file: 'f.yaml', start: { line: 9, col: 1 }, end: { line: 9, col: 2 } } }], { sources: new Map([['f.yaml', 'a: 1\n']]), color: false });
    expect(out).toBe('Error: s\n\n  on f.yaml line 9, column 1:\n');
  });
});
