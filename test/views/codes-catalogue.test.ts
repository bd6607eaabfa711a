import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DRIFT_CODES, NOTE_CODES, OUTCOME_CODES, REASON_CODES, type CodeDoc, type DriftCode, type DriftDetail, type Note, type NoteCode, type OutcomeCode, type OutcomeDetail, type Reason, type ReasonCode } from '../../src/plan/codes.js';
import type { Action } from '../../src/model/action.js';
import { outcomeSentence } from '../../src/views/apply-result.js';
import { driftSentence } from '../../src/views/drift-sentences.js';
import type { DriftItem } from '../../src/plan/types.js';
import { noteSentence, reasonSentence } from '../../src/views/change-sentences.js';

/*
 * docs/codes.md is generated from the code tables of src/plan/codes.ts and the sentences of
 * views/change-sentences.ts and views/apply-result.ts: one line per code, so the catalogue cannot miss a code or say an old
 * sentence. Regenerate after adding a code: `npx vitest run test/views/codes-catalogue.test.ts -u`.
 * The example data below is typed per code, so a new code without an example fails type-check.
 */

const REASON_EXAMPLES: { [C in ReasonCode]: Extract<Reason, { code: C }> } = {
  new: { code: 'new' },
  'missing-live': { code: 'missing-live' },
  removed: { code: 'removed' },
  'destroy-requested': { code: 'destroy-requested' },
  differs: { code: 'differs', paths: ['maxTokenTtl', 'config.boundAudiences'] },
  'secret-changed': { code: 'secret-changed', paths: ['config.oidcClientSecret'] },
  'protect-changed': { code: 'protect-changed' },
  adopt: { code: 'adopt' },
  'adopt-refused': { code: 'adopt-refused' },
  'protected-delete': { code: 'protected-delete' },
  rewrite: { code: 'rewrite' },
  'replace-auth-method': { code: 'replace-auth-method' },
  'replace-to-management': { code: 'replace-to-management' },
  'module-version': { code: 'module-version', module: 'vpc', from: '1.4.0', to: '1.5.0' },
  'module-options': { code: 'module-options' },
  'upgrade-available': { code: 'upgrade-available' },
  'first-run-in-flight': { code: 'first-run-in-flight', runId: 'run-abc', status: 'planning' },
  'resume-run': { code: 'resume-run', purpose: 'upgrade', runId: 'run-abc', phase: 'planned' },
  'deletion-policy': { code: 'deletion-policy', policy: 'safe' },
  'owner-tag': { code: 'owner-tag', tag: 'converge-state:platform' },
  moved: { code: 'moved', from: 'NoCodeWorkspace/vpc-dev', how: 'in-place' },
  'legacy-text': { code: 'legacy-text', text: '(the sentence as an older converge wrote it)' },
};

const NOTE_EXAMPLES: { [C in NoteCode]: Extract<Note, { code: C }> } = {
  'adopt-matches': { code: 'adopt-matches' },
  adopted: { code: 'adopted', address: 'NomadAuthMethod/okta' },
  'adopted-rule': { code: 'adopted-rule', id: '2b6c…' },
  'adopted-role': { code: 'adopted-role', id: '7f1e…' },
  'secret-invisible': { code: 'secret-invisible' },
  'secret-unknown': { code: 'secret-unknown', paths: ['config.oidcClientSecret'] },
  'secret-resent': { code: 'secret-resent', paths: ['variables.terraform.db_password.value'] },
  'already-gone': { code: 'already-gone' },
  'safe-delete-refused': { code: 'safe-delete-refused', resources: 3 },
  'module-downgrade': { code: 'module-downgrade', from: '1.4.0', to: '1.3.0' },
  'recreate-missing': { code: 'recreate-missing' },
  'protected-delete': { code: 'protected-delete' },
  'replaces-rule': { code: 'replaces-rule', id: '2b6c…', field: 'authMethod', from: 'okta', to: 'gh' },
  'management-rule': { code: 'management-rule' },
  'templated-bind-name': { code: 'templated-bind-name' },
  'role-delete-unlinks-tokens': { code: 'role-delete-unlinks-tokens', id: '5c1d…' },
  'version-unpinned': { code: 'version-unpinned', latest: '1.5.0' },
  'run-in-flight': { code: 'run-in-flight', purpose: 'upgrade', runId: 'run-abc', phase: 'planned', status: 'planned' },
  'run-applied-since': { code: 'run-applied-since', purpose: 'upgrade', runId: 'run-abc', status: 'applied' },
  'resumes-upgrade-run': { code: 'resumes-upgrade-run', runId: 'run-abc', phase: 'confirmed' },
  'first-run-then-upgrade': { code: 'first-run-then-upgrade', runId: 'run-abc', status: 'planning' },
  'owner-tag': { code: 'owner-tag', tag: 'converge-state:platform' },
  'moved-recreates': { code: 'moved-recreates', from: 'NomadAuthMethod/okta', to: 'NomadAuthMethod/okta-sso', dependents: ['NomadBindingRule/engineers'] },
  'moved-leftover': { code: 'moved-leftover', to: 'NomadBindingRule/engineers' },
  'legacy-text': { code: 'legacy-text', text: '(the sentence as an older converge wrote it)' },
};

const OUTCOME_EXAMPLES: { [C in OutcomeCode]: { action: Action; detail: Extract<OutcomeDetail, { code: C }> } } = {
  done: { action: 'update', detail: { code: 'done' } },
  'done-id': { action: 'create', detail: { code: 'done-id', object: 'rule', id: '0876…' } },
  'already-gone': { action: 'delete', detail: { code: 'already-gone', object: 'role', id: '7f1e…' } },
  'protect-recorded': { action: 'update', detail: { code: 'protect-recorded' } },
  'dropped-no-id': { action: 'delete', detail: { code: 'dropped-no-id', object: 'rule' } },
  'created-no-first-run': { action: 'create', detail: { code: 'created-no-first-run', id: 'ws-abc' } },
  'created-run': { action: 'create', detail: { code: 'created-run', id: 'ws-abc', version: '1.4.0', run: 'applied' } },
  recorded: { action: 'update', detail: { code: 'recorded' } },
  'module-enabled': { action: 'create', detail: { code: 'module-enabled', registryModule: 'acme/vpc/aws', version: '1.4.0', id: 'nocode-abc' } },
  written: { action: 'update', detail: { code: 'written', settings: true, variableWrites: 2 } },
  'run-ended': { action: 'update', detail: { code: 'run-ended', after: { step: 'written', settings: true, variableWrites: 0 }, run: 'applied' } },
  'run-interrupted': { action: 'upgrade', detail: { code: 'run-interrupted', after: { step: 'run', purpose: 'upgrade' }, url: 'https://app.terraform.io/app/acme/workspaces/vpc-dev/runs/run-abc' } },
  'safe-deleted': { action: 'delete', detail: { code: 'safe-deleted', id: 'ws-abc' } },
  orphaned: { action: 'delete', detail: { code: 'orphaned' } },
  destroyed: { action: 'delete', detail: { code: 'destroyed', id: 'ws-abc', deleted: true } },
  'upgrade-ended': { action: 'upgrade', detail: { code: 'upgrade-ended', written: { settings: false, variableWrites: 1 }, runId: 'run-abc', ended: { run: 'applied' } } },
  'destroy-run-applied': { action: 'delete', detail: { code: 'destroy-run-applied' } },
  'run-failed': { action: 'create', detail: { code: 'run-failed', after: { step: 'created', id: 'ws-abc', version: '1.4.0' } } },
  'internal-no-manifest': { action: 'update', detail: { code: 'internal-no-manifest' } },
  'internal-no-live': { action: 'upgrade', detail: { code: 'internal-no-live' } },
  'internal-no-create-body': { action: 'create', detail: { code: 'internal-no-create-body' } },
  cancelled: { action: 'create', detail: { code: 'cancelled' } },
  'lock-lost': { action: 'update', detail: { code: 'lock-lost' } },
  'earlier-not-recorded': { action: 'update', detail: { code: 'earlier-not-recorded' } },
  protected: { action: 'delete', detail: { code: 'protected' } },
  'dependent-not-deleted': { action: 'delete', detail: { code: 'dependent-not-deleted', dependent: 'NomadBindingRule/devs' } },
  'deletion-not-done': { action: 'create', detail: { code: 'deletion-not-done' } },
  'dependency-not-done': { action: 'create', detail: { code: 'dependency-not-done', dependency: 'NomadAuthMethod/okta', status: 'failed' } },
  'canary-failed': { action: 'upgrade', detail: { code: 'canary-failed', canary: 'vpc-dev' } },
  'upgrade-failed': { action: 'upgrade', detail: { code: 'upgrade-failed', workspace: 'vpc-dev' } },
  'max-failures': { action: 'upgrade', detail: { code: 'max-failures', module: 'vpc', maxFailures: 2, failed: ['vpc-dev', 'vpc-qa'] } },
  'awaiting-upgrade-run': { action: 'upgrade', detail: { code: 'awaiting-upgrade-run', runId: 'run-abc', url: 'https://app.terraform.io/app/acme/workspaces/vpc-dev/runs/run-abc' } },
  'awaiting-run': { action: 'delete', detail: { code: 'awaiting-run', after: { step: 'destroy' }, url: 'https://app.terraform.io/app/acme/workspaces/vpc-dev/runs/run-abc' } },
};

const DRIFT_EXAMPLES: { [C in DriftCode]: Omit<DriftItem, 'detail'> & { detail: Extract<DriftDetail, { code: C }> } } = {
  'gone-live': { kind: 'NomadAuthMethod', name: 'okta', cause: 'missing', fields: [], detail: { code: 'gone-live', recreate: true } },
  'changed-outside': { kind: 'NomadAuthMethod', name: 'okta', cause: 'outside', fields: [{ path: 'tokenLocality', before: 'local', after: 'global', sensitive: false }], detail: { code: 'changed-outside' } },
  'manifest-changed': { kind: 'NomadAuthMethod', name: 'okta', cause: 'pending', fields: [{ path: 'maxTokenTtl', before: '30m', after: '1h', sensitive: false }], detail: { code: 'manifest-changed' } },
  'manifest-removed': { kind: 'NomadAuthMethod', name: 'okta', cause: 'pending', fields: [], detail: { code: 'manifest-removed' } },
  'hidden-change': { kind: 'NoCodeWorkspace', name: 'vpc-dev', cause: 'hidden', fields: [], detail: { code: 'hidden-change', hidden: { code: 'secret-versions-moved', paths: ['terraform:db_password'] } } },
  'legacy-text': { kind: 'NomadAuthMethod', name: 'okta', cause: 'outside', fields: [], detail: { code: 'legacy-text', text: '(the sentence as an older converge wrote it)' } },
};

const cell = (s: string) => s.replace(/\|/g, '\\|');

function table<C extends string, T>(docs: Record<C, CodeDoc>, examples: Record<C, T>, say: (x: T) => string): string[] {
  const rows = (Object.keys(docs) as C[]).map((code) => {
    const d = docs[code];
    return `| \`${code}\` | ${cell(d.meaning)} | ${d.data === '-' ? '-' : `\`${cell(d.data)}\``} | ${cell(say(examples[code]))} |`;
  });
  return ['| Code | Meaning | Data | Text and Markdown say (example data) |', '|---|---|---|---|', ...rows];
}

function codesDoc(): string {
  return [
    '# Reason and note codes',
    '',
    '<!-- Generated by test/views/codes-catalogue.test.ts from src/plan/codes.ts, src/views/change-sentences.ts and src/views/apply-result.ts; regenerate with `npx vitest run test/views/codes-catalogue.test.ts -u`. -->',
    '',
    'A planned change carries **reasons** (why it is planned) and **notes** (what a reviewer must know) as codes with data. The engine and the providers make them; only `src/views/` words them. The data holds paths, ids, versions and names, never the value of a sensitive field.',
    '',
    '- Text plan (`converge plan`, `show`): the reasons joined with `; ` on a `# …` line under the object, each note on a `note: …` line.',
    '- Markdown (`--markdown`, the GitHub comment): the same sentences, as `# …` and `# note: …` lines in the object\'s diff block.',
    '- `plan --json` (format 1.0): `reason` and `notes` hold the same sentences (for people; do not parse them); `reasons` and `noteCodes` hold the codes with their data, in the same order (schemas/plan.json).',
    '- Saved plans (`plan --out`) hold `reasons` and `notes` as codes with data only; `show` words them.',
    '',
    '## Reasons',
    '',
    ...table(REASON_CODES, REASON_EXAMPLES, reasonSentence),
    '',
    '## Notes',
    '',
    ...table(NOTE_CODES, NOTE_EXAMPLES, noteSentence),
    '',
    '## Drift',
    '',
    'A drift item (in `converge drift` and the plan) carries `cause` and `fields`, and `detail`, a code with data. Text and Markdown print the sentence below; the JSON outputs keep `detail` and give the sentence as `message` (format 1.0).',
    '',
    ...table(DRIFT_CODES, DRIFT_EXAMPLES, driftSentence),
    '',
    '## Apply outcomes',
    '',
    'A succeeded outcome of `apply` carries `detail`, a code with data; so does a skipped one (why it was not sent), one awaiting confirmation, a failed HCP Terraform run (`run-failed`: its `error` says why, after the sentence), and a change that failed before anything was sent because its plan lacks what planning always gives it (`internal-…`, a bug). The text result line words it after the address (with the fields or versions the plan knew; `skipped: …`, `awaiting confirmation: …`); `apply --json` keeps `detail` and gives the sentence below as `message` (schemas/apply-result.json). Outcomes without a code (most failures) carry a `message` for people and, when failed, an `error` with a stable code.',
    '',
    ...table(OUTCOME_CODES, OUTCOME_EXAMPLES, (x) => outcomeSentence(x.action, x.detail)),
    '',
  ].join('\n');
}

describe('the catalogue of reason and note codes', () => {
  it('docs/codes.md has one line per code, with its sentence', async () => {
    await expect(codesDoc()).toMatchFileSnapshot('../../docs/codes.md');
  });

  it('schemas/plan.json names exactly the codes of the union', () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/plan.json'), 'utf8')) as {
      definitions: Record<string, { properties: { code: { enum: string[] } } }>;
    };
    expect(schema.definitions.reason?.properties.code.enum).toEqual(Object.keys(REASON_CODES));
    expect(schema.definitions.note?.properties.code.enum).toEqual(Object.keys(NOTE_CODES));
  });

  it('schemas/plan.json names exactly the drift codes', () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/plan.json'), 'utf8')) as {
      definitions: { driftItem: { properties: { detail: { properties: { code: { enum: string[] } } } } } };
    };
    expect(schema.definitions.driftItem.properties.detail.properties.code.enum).toEqual(Object.keys(DRIFT_CODES));
  });

  it('schemas/apply-result.json names exactly the outcome codes', () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/apply-result.json'), 'utf8')) as {
      properties: { outcomes: { items: { properties: { detail: { properties: { code: { enum: string[] } } } } } } };
    };
    expect(schema.properties.outcomes.items.properties.detail.properties.code.enum).toEqual(Object.keys(OUTCOME_CODES));
  });
});
