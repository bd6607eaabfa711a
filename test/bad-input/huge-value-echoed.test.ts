import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { renderDiagnosticsText } from '../../src/views/diagnostics.js';

/*
 * Regression: a diagnostic quoted the offending value in its summary and the whole source line under it,
 * so a 3 MB scalar became 9 MB of stderr. Summaries are clipped (manifest/clip.ts) and the quoted line is
 * a window around the column (views/diagnostics.ts).
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-huge-value-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function render(text: string): Promise<{ out: string; summaries: string[] }> {
  await writeFile(join(dir, 'm.yaml'), text);
  const r = await loadManifests(['m.yaml'], { cwd: dir });
  return { out: renderDiagnosticsText(r.diagnostics, { sources: r.sources, color: false }), summaries: r.diagnostics.map((d) => d.summary) };
}

describe('a huge value was echoed back whole', () => {
  it('a 3 MB unknown kind gives a few hundred characters, not megabytes', async () => {
    const { out, summaries } = await render(`kind: ${'K'.repeat(3_000_000)}\nname: x\nspec: {}\n`);
    expect(summaries[0]).toMatch(/^unknown kind `K+…K+`$/);
    expect(summaries[0]?.length).toBe(300);
    expect(out.length).toBeLessThan(2000);
    expect(out).toContain('  on m.yaml line 1, column 7:\n  1 | kind: KKK');
  });

  it('the quoted window follows the column on a long line, and the carets stay under it', async () => {
    const { out } = await render(`kind: NoCodeModule\nname: vpc\nspec: { registryModule: acme/vpc/aws, ${'x'.repeat(5000)}: 1, enabled: maybe }\n`);
    const quoted = out.split('\n').filter((l) => l.startsWith('  3 | ') || l.startsWith('    | '));
    expect(quoted.length).toBeGreaterThan(0);
    for (const l of quoted) expect(l.length).toBeLessThan(220);
    expect(out).toContain('enabled: maybe');
    const [line, carets] = [out.split('\n').find((l) => l.includes('enabled: maybe')), out.split('\n').find((l) => /^ {4}\| +\^/.test(l) && out.indexOf(l) > out.indexOf('enabled: maybe'))];
    expect(line && carets && line.indexOf('maybe')).toBe(carets?.indexOf('^'));
  });

  it('short lines are quoted as before', async () => {
    const { out } = await render('kind: NoCodeModule\nname: vpc\nspec:\n  registryModule: 42\n');
    expect(out).toContain('  4 |   registryModule: 42\n    |                   ^^\n');
  });
});
