import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { checkSelector, MAX_SELECTOR_NESTING } from '../../src/kinds/nomad-binding-rule/selector.js';

/*
 * Regression: the binding-rule selector parser recursed once per `(` and `not`; a selector of 300 000
 * `(` overflowed the stack, and `converge validate` printed "Maximum call stack size exceeded
 * (unexpected: set CONVERGE_DEBUG=1 for details)" with no location. Nesting is now capped.
 */
describe('a deeply nested selector overflowed the stack', () => {
  it('300 000 parentheses are a located selector error, not a throw', () => {
    const e = checkSelector('('.repeat(300_000) + 'value.a == "b"' + ')'.repeat(300_000));
    expect(e?.message).toContain(`nested more than ${MAX_SELECTOR_NESTING} levels deep`);
    expect(e?.col).toBe(MAX_SELECTOR_NESTING + 1);
  });

  it('100 000 `not` are too', () => {
    expect(checkSelector('not '.repeat(100_000) + 'value.a == "b"')?.message).toContain('nested more than');
  });

  it('nesting up to the cap still parses', () => {
    const n = MAX_SELECTOR_NESTING - 1;
    expect(checkSelector('('.repeat(n) + 'value.a == "b"' + ')'.repeat(n))).toBeUndefined();
    expect(checkSelector('not not (value.a == "b" and not ("x" in list.g))')).toBeUndefined();
  });

  it('through the loader: one diagnostic at the selector', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-selector-'));
    try {
      await writeFile(
        join(dir, 'rule.yaml'),
        `kind: NomadBindingRule\nname: r\nspec:\n  authMethod: gh\n  bindType: role\n  bindName: dev\n  selector: "${'('.repeat(300_000)}"\n`,
      );
      const r = await loadManifests(['rule.yaml'], { cwd: dir });
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => d.summary)).toEqual([expect.stringContaining('nested more than')]);
      expect(errors[0]?.range?.start.line).toBe(7);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
