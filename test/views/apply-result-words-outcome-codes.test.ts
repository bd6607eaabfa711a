import { describe, expect, it } from 'vitest';
import type { ApplyResult } from '../../src/engine/types.js';
import { renderApplyResultJson, renderApplyResultText } from '../../src/views/apply-result.js';

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
