import { describe, expect, it } from 'vitest';
import type { ApplyResult } from '../../src/engine/types.js';
import { renderApplyResultJson, renderApplyResultText } from '../../src/views/apply-result.js';
import { ConvergeError } from '../../src/diagnostics/errors.js';

/*
 * Regression: the apply result decided what to print from whether a provider's message started
 * with the verb ("created rule 0876…" printed as is, "created" dropped, anything else put after the
 * verb). Outcomes now carry a code with data (`detail`) that the view words; it never looks inside
 * a provider's sentence.
 */

const counts = { succeeded: 3, failed: 0, skipped: 0, awaiting: 0 };

function result(): ApplyResult {
  return {
    outcomes: [
      { kind: 'NomadBindingRule', name: 'eng', action: 'create', status: 'succeeded', detail: { code: 'done-id', object: 'rule', id: '0876' } },
      { kind: 'NomadAclRole', name: 'ops', action: 'delete', status: 'succeeded', detail: { code: 'already-gone', object: 'role', id: '7f1e' } },
      { kind: 'NoCodeModule', name: 'vpc', action: 'update', status: 'succeeded', detail: { code: 'done-id', id: 'nocode-9', paths: ['versionPin'] } },
    ],
    counts,
  };
}

describe('apply outcomes as codes', () => {
  it('the text result words each code once, with the verb', () => {
    expect(renderApplyResultText(result())).toBe(
      [
        '  + NomadBindingRule/eng  created rule 0876',
        '  - NomadAclRole/ops      deleted: role 7f1e already gone',
        '  ~ NoCodeModule/vpc      updated nocode-9: versionPin',
        '',
        'Apply complete: 3 succeeded.',
        '',
      ].join('\n'),
    );
  });

  it('apply --json keeps the code and its data, and gives the sentence as message (format 1.0)', () => {
    const json = JSON.parse(renderApplyResultJson(result())) as { outcomes: { detail?: unknown; message?: string }[] };
    expect(json.outcomes[0]).toMatchObject({ detail: { code: 'done-id', object: 'rule', id: '0876' }, message: 'created rule 0876' });
    expect(json.outcomes[1]).toMatchObject({ detail: { code: 'already-gone' }, message: 'role 7f1e already gone' });
  });
});

describe('outcomes that did not succeed, as codes', () => {
  const refused = new ConvergeError('tfe.workspace.safe-delete-refused', 'HCP Terraform refused to safe-delete workspace vpc-dev: still managing 3 resources', { source: 'remote' });
  const notDone = (): ApplyResult => ({
    outcomes: [
      { kind: 'NomadBindingRule', name: 'eng', action: 'create', status: 'skipped', detail: { code: 'dependency-not-done', dependency: 'NomadAuthMethod/okta', status: 'failed' } },
      { kind: 'NoCodeWorkspace', name: 'vpc-qa', action: 'upgrade', status: 'skipped', detail: { code: 'canary-failed', canary: 'vpc-dev' } },
      { kind: 'NoCodeWorkspace', name: 'vpc-prod', action: 'upgrade', status: 'awaiting-confirmation', detail: { code: 'awaiting-upgrade-run', runId: 'run-1', url: 'https://tfe/runs/run-1' } },
      { kind: 'NoCodeWorkspace', name: 'vpc-dev', action: 'delete', status: 'failed', detail: { code: 'destroy-run-applied' }, error: refused },
    ],
    counts: { succeeded: 0, failed: 1, skipped: 2, awaiting: 1 },
  });

  it('the text result says the status, then the sentence; a coded failure goes on with its error', () => {
    expect(renderApplyResultText(notDone())).toBe(
      [
        '  + NomadBindingRule/eng      skipped: NomadAuthMethod/okta (which it depends on) failed',
        '  ^ NoCodeWorkspace/vpc-qa    skipped: not started: the upgrade of vpc-dev (the canary) failed',
        '  ^ NoCodeWorkspace/vpc-prod  awaiting confirmation: upgrade run run-1 is planned and waits for confirmation (upgrade.confirm: manual): https://tfe/runs/run-1',
        '  - NoCodeWorkspace/vpc-dev   FAILED to delete: destroy run applied: HCP Terraform refused to safe-delete workspace vpc-dev: still managing 3 resources',
        '',
        'Apply incomplete: 0 succeeded, 1 failed, 2 skipped, 1 awaiting confirmation. Confirm each run awaiting confirmation at its URL; the next plan records it.',
        '',
      ].join('\n'),
    );
  });

  it('apply --json keeps the code and gives the same sentence as message', () => {
    const json = JSON.parse(renderApplyResultJson(notDone())) as { outcomes: { detail?: unknown; message?: string }[] };
    expect(json.outcomes[0]).toMatchObject({ detail: { code: 'dependency-not-done' }, message: 'NomadAuthMethod/okta (which it depends on) failed' });
    expect(json.outcomes[3]).toMatchObject({ detail: { code: 'destroy-run-applied' }, message: 'destroy run applied: HCP Terraform refused to safe-delete workspace vpc-dev: still managing 3 resources' });
  });
});
