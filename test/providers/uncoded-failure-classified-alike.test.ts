import { describe, expect, it } from 'vitest';
import { ConvergeError } from '../../src/diagnostics/errors.js';
import type { PlannedChange } from '../../src/providers/provider.js';
import { failed as nomadFailed } from '../../src/providers/nomad/outcome.js';
import { failed as tfeFailed } from '../../src/providers/tfe/outcome.js';

// Regression: the Nomad provider called an uncoded throw during apply `internal`, HCP Terraform's
// `remote` and retryable, so the same unreadable answer got two different exit stories.
function planned(kind: 'NomadAuthMethod' | 'TfeWorkspace', name: string): PlannedChange {
  return { change: { kind, name, action: 'create', fields: [] }, view: { kind, name } } as unknown as PlannedChange;
}

describe('a failure without a code', () => {
  it.each([
    ['Nomad', nomadFailed, planned('NomadAuthMethod', 'okta'), 'nomad.request-failed'],
    ['HCP Terraform', tfeFailed, planned('TfeWorkspace', 'app'), 'tfe.request-failed'],
  ] as const)('is the remote side and retryable in %s, naming the object', (service, failed, p, code) => {
    const o = failed(p, new SyntaxError('Unexpected token < in JSON at position 0'));
    expect(o.status).toBe('failed');
    expect(o.error).toMatchObject({ code, source: 'remote', retryable: true });
    expect(o.message).toBe(`${p.change.kind}/${p.change.name}: request to ${service} failed: Unexpected token < in JSON at position 0`);
  });

  it('keeps a coded error and says where in the manifest it points, for both providers', () => {
    const e = new ConvergeError('x.invalid', 'bad field', { source: 'user', range: { file: 'a.yaml', start: { line: 3, col: 5 }, end: { line: 3, col: 9 } } });
    for (const failed of [nomadFailed, tfeFailed]) {
      const o = failed(planned('NomadAuthMethod', 'okta'), e);
      expect(o.error).toBe(e);
      expect(o.message).toBe('bad field (on a.yaml line 3, column 5)');
    }
  });
});
