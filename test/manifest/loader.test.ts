import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/manifests/', import.meta.url));
const INVALID = FIXTURES + 'invalid';

describe('loadManifests details', () => {
  it('unknown fields and kinds suggest the closest name', async () => {
    const field = await loadManifests(['am-unknown-field.yaml'], { cwd: INVALID });
    expect(field.diagnostics[0]?.detail).toBe('Did you mean `oidcClientId`?');
    expect(field.diagnostics[0]?.range).toEqual({ file: 'am-unknown-field.yaml', start: { line: 9, col: 5 }, end: { line: 9, col: 17 } });
    const kind = await loadManifests(['doc-unknown-kind.yaml'], { cwd: INVALID });
    expect(kind.diagnostics[0]?.detail).toContain('Did you mean `NomadAuthMethod`?');
    const enumD = await loadManifests(['am-type-enum.yaml'], { cwd: INVALID });
    expect(enumD.diagnostics[0]?.detail).toContain('Did you mean OIDC?');
  });

  // Regression: a missing field was reported at the mapping's first field (`type:`), with no word of what it holds.
  it('a missing field is reported at the key of its mapping, with what the field holds', async () => {
    const r = await loadManifests(['am-missing-ttl.yaml'], { cwd: INVALID });
    const d = r.diagnostics.find((x) => x.code === 'schema.required');
    expect(d?.range?.start).toEqual({ line: 3, col: 1 });
    expect(d?.detail).toMatch(/^Add `maxTokenTtl:` to `spec`: .*lifetime of tokens.*Go duration syntax: 1h/);
  });

  it('selector errors point at the column inside the selector', async () => {
    const r = await loadManifests(['br-selector-single-equals.yaml'], { cwd: INVALID });
    // `  selector: 'value.email = ...'`: the quote is column 13, the `=` is the selector's 13th character.
    expect(r.diagnostics[0]?.range?.start).toEqual({ line: 5, col: 26 });
  });

  it('never reads environment variables, never echoes literal secrets', async () => {
    const r = await loadManifests(['am-literal-secret.yaml'], { cwd: INVALID });
    expect(JSON.stringify(r.diagnostics)).not.toContain('hunter2');
    const ok = await loadManifests(['valid/no-code.yaml'], { cwd: FIXTURES });
    expect(ok.diagnostics).toEqual([]); // NETWORK_TOKEN is not set: fine at validate time
  });

  it('builds desired objects: protect, positions, baseDir, settings, values as text', async () => {
    const r = await loadManifests(['valid'], { cwd: FIXTURES });
    const ws = r.desired.objects.find((o) => o.kind === 'NoCodeWorkspace');
    expect(ws?.protect).toBe(true);
    expect(ws?.kind === 'NoCodeWorkspace' && ws.spec.variables?.[1]?.value).toBe('2');
    expect(ws?.positions['/spec/variables/1/value']?.start.line).toBe(29);
    expect(ws?.baseDir).toBe(FIXTURES + 'valid');
    const am = r.desired.objects.find((o) => o.name === 'corp-sso');
    expect(am?.positions['/spec/config/oidcClientId']).toEqual({ file: 'valid/everything.yaml', start: { line: 27, col: 19 }, end: { line: 27, col: 27 } });
    expect(r.desired.settings.spec.state).toEqual({ backend: 'nomad', path: 'converge/state', lockPath: 'converge/lock', namespace: 'default' });
    expect(r.desired.settings.range?.start.line).toBe(3);
  });
});

describe('selector columns in quoted YAML', () => {
  it('account for escapes in double-quoted scalars', async () => {
    const r = await loadManifests(['br-selector-escaped-quotes.yaml'], { cwd: INVALID });
    const line = '  selector: "\\"engineering\\" in list.groups or \\"ops\\" = list.groups"';
    expect(r.diagnostics[0]?.range?.start).toEqual({ line: 5, col: line.indexOf(' = ') + 2 });
  });
});
