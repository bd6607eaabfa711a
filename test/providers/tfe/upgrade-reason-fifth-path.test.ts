import { describe, expect, it } from 'vitest';
import { genericChange } from '../../../src/engine/generic-change.js';
import type { AnyDesired } from '../../../src/model/desired.js';
import { refineWorkspaceChange } from '../../../src/kinds/no-code-workspace/remote/refine.js';
import type { ObjectView } from '../../../src/providers/provider.js';
import { reasonLine } from '../../../src/views/change-sentences.js';

/*
 * Regression: the upgrade's reason was made by cutting `moduleVersion` out of the engine's sentence,
 * which names at most five paths and then "and N more": with moduleVersion fifth, the cut left
 * "moduleVersion and 2 more" in the reason. The reasons are now codes built from the fields
 * themselves, worded by the view.
 */
// Paths that sort before `moduleVersion`, so it is the fifth path the engine names.
const fields = (version: string, suffix: string) => ({
  module: 'vpc',
  agentPoolId: `pool-${suffix}`,
  autoApply: suffix === 'new',
  description: `d-${suffix}`,
  executionMode: suffix === 'new' ? 'agent' : 'remote',
  moduleVersion: version,
  'variables.terraform.a': `a-${suffix}`,
  'variables.terraform.b': `b-${suffix}`,
});

function view(): ObjectView {
  const object = { kind: 'NoCodeWorkspace', name: 'vpc-dev', protect: false, spec: { module: 'vpc' }, range: { file: 'x.yaml', start: { line: 1, col: 1 }, end: { line: 1, col: 1 } }, positions: {}, baseDir: '.' } as unknown as AnyDesired;
  return {
    kind: 'NoCodeWorkspace',
    name: 'vpc-dev',
    desired: { object, fields: fields('1.5.0', 'new'), secrets: {} },
    live: { id: 'ws-1', fields: fields('1.4.0', 'old'), extra: {} },
    record: { kind: 'NoCodeWorkspace', name: 'vpc-dev', id: 'ws-1', protect: false, applied: fields('1.4.0', 'old'), secretDigests: {}, updatedAt: '2026-01-01T00:00:00Z' } as unknown as ObjectView['record'],
  };
}

describe('an upgrade with many changed fields', () => {
  it('names the version move once and every other path, whatever position moduleVersion had', () => {
    const v = view();
    const generic = genericChange(v).change;
    expect(reasonLine(generic)).toBe('differs from the manifests: agentPoolId, autoApply, description, executionMode, moduleVersion and 2 more');
    const [upgrade] = refineWorkspaceChange(v, generic, new Map(), { rewrite: false });
    expect(upgrade?.action).toBe('upgrade');
    expect(upgrade && reasonLine(upgrade)).toMatch(/^module vpc moves from 1\.4\.0 to 1\.5\.0; differs from the manifests: /);
    expect(upgrade && reasonLine(upgrade)).not.toContain('moduleVersion');
    expect(upgrade?.reasons?.[0]).toEqual({ code: 'module-version', module: 'vpc', from: '1.4.0', to: '1.5.0' });
    expect(upgrade && reasonLine(upgrade)).toContain('executionMode, variables.terraform.a and 1 more');
    const [rewritten] = refineWorkspaceChange(v, generic, new Map(), { rewrite: true });
    expect(rewritten && reasonLine(rewritten)).toContain('rewrite requested (--rewrite)');
  });
});
