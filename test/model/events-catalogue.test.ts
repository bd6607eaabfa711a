import { describe, expect, it } from 'vitest';
import { EVENT_DOCS, MemoryReporter, type EventCode, type Reporter, type TypedEvent } from '../../src/model/events.js';

/*
 * docs/events.md is generated from EVENT_DOCS (src/model/events.ts) and the typed examples below: one section per
 * event code, so the doc cannot miss an event or a field. Regenerate after adding an event:
 * `npx vitest run test/model/events-catalogue.test.ts -u`. The examples are typed per code, so a new event
 * without an example, or an example with the wrong data, fails type-check.
 */

const EXAMPLES: { [C in EventCode]: TypedEvent<C> } = {
  'cli.phase.start': { code: 'cli.phase.start', level: 'info', message: 'applying…', data: { phase: 'applying', total: 3, actions: { create: 1, update: 2 } } },
  'cli.phase.done': { code: 'cli.phase.done', level: 'debug', message: 'applying: done in 2s', data: { phase: 'applying', elapsedMs: 2000 } },
  'apply.change.start': { code: 'apply.change.start', level: 'info', message: 'NomadAuthMethod/okta: update…', data: { kind: 'NomadAuthMethod', name: 'okta', action: 'update' } },
  'apply.change.done': {
    code: 'apply.change.done',
    level: 'info',
    message: 'NomadAuthMethod/okta: update succeeded (done)',
    data: { kind: 'NomadAuthMethod', name: 'okta', action: 'update', status: 'succeeded', detail: { code: 'done' } },
  },
  'apply.state.adopted': { code: 'apply.state.adopted', level: 'info', message: 'NomadAclRole/devs: recorded as owned (it already matched the manifests; nothing sent)', data: { kind: 'NomadAclRole', name: 'devs', id: '7f1e…' } },
  'apply.state.refreshed': { code: 'apply.state.refreshed', level: 'info', message: 'NomadAclRole/devs: state record refreshed from the live object (nothing sent)', data: { kind: 'NomadAclRole', name: 'devs', dropped: false } },
  'apply.state.dropped': { code: 'apply.state.dropped', level: 'info', message: 'NomadAclRole/devs: already gone, dropped from state', data: { kind: 'NomadAclRole', name: 'devs' } },
  'apply.state.moved': {
    code: 'apply.state.moved',
    level: 'info',
    message: 'NoCodeWorkspace/vpc-dev: moved to NoCodeWorkspace/vpc-development in state',
    data: { kind: 'NoCodeWorkspace', from: 'vpc-dev', to: 'vpc-development', id: 'ws-abc' },
  },
  'http.retry': {
    code: 'http.retry',
    level: 'warn',
    message: 'GET /api/v2/workspaces/ws-abc: HTTP 429; retry 1 of 5 in 2s',
    data: { method: 'GET', path: '/api/v2/workspaces/ws-abc', status: 429, attempt: 1, waitMs: 2000 },
  },
  'http.read-back': {
    code: 'http.read-back',
    level: 'info',
    message: 'POST /v1/acl/binding-rule (NomadBindingRule/devs): socket hang up, but a read by natural key found it done; not sent again',
    data: { method: 'POST', path: '/v1/acl/binding-rule', error: 'socket hang up', attempt: 1, subject: 'NomadBindingRule/devs' },
  },
  'http.plaintext-token': { code: 'http.plaintext-token', level: 'warn', message: 'sending a token over plain http:// to http://nomad:4646; …', data: { origin: 'http://nomad:4646' } },
  'config.tfe-organization-conflict': { code: 'config.tfe-organization-conflict', level: 'warn', message: 'TFE_ORGANIZATION names another organization than the settings; …', data: { organization: 'acme' } },
  'config.nomad-skip-verify': { code: 'config.nomad-skip-verify', level: 'warn', message: 'NOMAD_SKIP_VERIFY is set: …', data: { address: 'https://nomad:4646' } },
  'nomad.binding-rule.create-recovered': {
    code: 'nomad.binding-rule.create-recovered',
    level: 'info',
    message: 'NomadBindingRule/devs: the create answered 500, but rule 2b6c… exists with the same fields: taken as created',
    data: { subject: 'NomadBindingRule/devs', id: '2b6c…' },
  },
  'nomad.binding-rule.create-retry': {
    code: 'nomad.binding-rule.create-retry',
    level: 'warn',
    message: 'NomadBindingRule/devs: create failed (500) and no matching rule exists: trying again (2 of 3)',
    data: { subject: 'NomadBindingRule/devs', attempt: 1 },
  },
  'nomad.write-mismatch': {
    code: 'nomad.write-mismatch',
    level: 'warn',
    message: 'NomadAuthMethod/okta: Nomad stored different values for config.verboseLogging (an older server without these fields?)',
    data: { kind: 'NomadAuthMethod', name: 'okta', paths: ['config.verboseLogging'] },
  },
  'nomad.replica.in-sync': { code: 'nomad.replica.in-sync', level: 'info', message: 'Nomad region eu has every … of the authoritative region (no replication lag)', data: { region: 'eu' } },
  'tfe.run.phase': {
    code: 'tfe.run.phase',
    level: 'info',
    message: 'vpc-dev: upgrade run run-abc is planning',
    data: { workspace: 'vpc-dev', runId: 'run-abc', phase: 'planning', stage: 'planning', elapsedMs: 4000, purpose: 'upgrade' },
  },
  'tfe.run.resume': { code: 'tfe.run.resume', level: 'info', message: 'vpc-dev: resuming upgrade run run-abc (last seen confirmed)', data: { workspace: 'vpc-dev', runId: 'run-abc', phase: 'confirmed' } },
  'tfe.run.adopt': { code: 'tfe.run.adopt', level: 'warn', message: 'vpc-dev: run run-abc is in flight but not in state …; following it', data: { workspace: 'vpc-dev', runId: 'run-abc' } },
  'tfe.run.poll-failed': {
    code: 'tfe.run.poll-failed',
    level: 'warn',
    message: 'vpc-dev: reading upgrade run run-abc failed (HTTP 503); polling again',
    data: { workspace: 'vpc-dev', runId: 'run-abc', purpose: 'upgrade', code: 'tfe.http-503' },
  },
  'tfe.run.unconfirmed': {
    code: 'tfe.run.unconfirmed',
    level: 'warn',
    message: 'vpc-dev: upgrade run run-abc was recorded as confirmed but still waits for a confirmation (planned)',
    data: { workspace: 'vpc-dev', runId: 'run-abc', phase: 'planned', purpose: 'upgrade' },
  },
  'tfe.run.not-the-upgrade': {
    code: 'tfe.run.not-the-upgrade',
    level: 'warn',
    message: 'vpc-dev: run run-abc left the workspace at 1.4.0, not 1.5.0: it was not the upgrade; starting the upgrade now',
    data: { workspace: 'vpc-dev', runId: 'run-abc', version: '1.4.0', to: '1.5.0' },
  },
  'tfe.workspace.state-processing': {
    code: 'tfe.workspace.state-processing',
    level: 'info',
    message: "NoCodeWorkspace/vpc-dev: HCP Terraform is still processing the workspace's latest state; safe-delete again in 5s",
    data: { kind: 'NoCodeWorkspace', name: 'vpc-dev', waitMs: 5000 },
  },
  'tfe.workspace.owner-tag': { code: 'tfe.workspace.owner-tag', level: 'warn', message: 'workspace vpc-dev was created but not tagged with its owner yet (HTTP 500); …', data: { workspace: 'vpc-dev' } },
  'state.lock.acquired': { code: 'state.lock.acquired', level: 'debug', message: 'Locked the state (lock 1a2b…, lease 60s, renewed every 20s)', data: { lockId: '1a2b…', path: 'converge/state/lock' } },
  'state.lock.wait': { code: 'state.lock.wait', level: 'info', message: 'Waiting up to 30s for the state lock: …', data: { path: 'converge/state/lock', holderId: '9f8e…' } },
  'state.lock.own-unknown': { code: 'state.lock.own-unknown', level: 'warn', message: "This run's own lock request … succeeded but its reply was lost; …", data: { lockId: '1a2b…', path: 'converge/state/lock' } },
  'state.lock.record-failed': { code: 'state.lock.record-failed', level: 'warn', message: 'Could not record the Nomad lock ID …', data: { path: 'converge/state/lock', error: 'HTTP 500' } },
  'state.lock.renew-failed': { code: 'state.lock.renew-failed', level: 'warn', message: 'Could not renew the state lock …', data: { lockId: '1a2b…', lostInMs: 40000 } },
  'state.lock.lost': { code: 'state.lock.lost', level: 'error', message: 'the state lock was lost; this run starts no further changes and writes no further state', data: { lockId: '1a2b…', path: 'converge/state/lock' } },
  'state.lock.released': { code: 'state.lock.released', level: 'debug', message: 'Unlocked the state', data: { lockId: '1a2b…' } },
  'state.lock.release-lost': { code: 'state.lock.release-lost', level: 'warn', message: 'The state lock … was no longer ours at release (its lease had ended)', data: { lockId: '1a2b…' } },
  'state.lock.force-released': { code: 'state.lock.force-released', level: 'info', message: 'Removed the lock 1a2b… on the state', data: { lockId: '1a2b…' } },
  'state.lock-replaced': { code: 'state.lock-replaced', level: 'warn', message: 'took over the state lock left by ci (pid 4242, …)', data: { lockId: '1a2b…', pid: 4242, host: 'runner-7' } },
  'state.read.retry': { code: 'state.read.retry', level: 'debug', message: 'The state … changed while reading; reading it again', data: { attempt: 1 } },
  'state.fold-deferred': { code: 'state.fold-deferred', level: 'debug', message: 'Could not fold the state journal … yet: HTTP 409', data: { error: 'HTTP 409' } },
  'state.compact-failed': { code: 'state.compact-failed', level: 'warn', message: 'could not fold the state journal into the state file (EACCES); …', data: { error: 'EACCES' } },
  'state.cleanup-failed': { code: 'state.cleanup-failed', level: 'warn', message: 'Could not delete the old state variable …; it is harmless …', data: { path: 'converge/state/part-3', error: 'HTTP 500' } },
};

const cell = (s: string) => s.replace(/\|/g, '\\|');

function eventsDoc(): string {
  const codes = Object.keys(EVENT_DOCS) as EventCode[];
  const sections = codes.map((code) => {
    const d = EVENT_DOCS[code];
    const example = EXAMPLES[code];
    const fields = Object.entries(d.fields as Record<string, string>).map(([field, meaning]) => {
      const value = (example.data as Record<string, unknown>)[field];
      return `| \`${field}\` | ${cell(meaning)} | ${value === undefined ? '-' : `\`${cell(JSON.stringify(value))}\``} |`;
    });
    return [
      `### \`${code}\``,
      '',
      `Level: ${d.levels.map((l) => `\`${l}\``).join(', ')}. Fires when ${d.when}.`,
      '',
      '| Field | Meaning | Example |',
      '|---|---|---|',
      ...fields,
      '',
    ].join('\n');
  });
  return [
    '# Progress events',
    '',
    '<!-- Generated by test/model/events-catalogue.test.ts from src/model/events.ts (EventCatalogue, EVENT_DOCS); regenerate with `npx vitest run test/model/events-catalogue.test.ts -u`. -->',
    '',
    'While it works, converge reports progress as events: a stable code, a level, a sentence for people (`message`) and data. ' +
      'The library hands them to the `Reporter` a caller gives it (`MemoryReporter` collects them; `reporter.of(code)` gives one code’s events with their typed data). ' +
      'The CLI shows them on stderr (a status line on a terminal, timestamped lines elsewhere; `--quiet` keeps warnings and errors, `--verbose` adds debug), ' +
      'and `apply --json-stream` writes each as one JSON line on stdout (docs/ci.md, schemas/json-stream.json). ' +
      'Data holds names, ids, paths and counts, never a secret’s value; everything written passes the redactor too. Optional fields are absent, not null.',
    '',
    `${codes.length} events:`,
    '',
    ...codes.map((c) => `- \`${c}\` (${EVENT_DOCS[c].levels.join(', ')})`),
    '',
    ...sections,
  ].join('\n');
}

describe('the event catalogue', () => {
  it('docs/events.md lists every event with its levels, when it fires and its fields', async () => {
    await expect(eventsDoc()).toMatchFileSnapshot('../../docs/events.md');
  });

  it('each example is emitted at a level its entry names', () => {
    for (const code of Object.keys(EVENT_DOCS) as EventCode[]) {
      expect(EVENT_DOCS[code].levels as readonly string[], code).toContain(EXAMPLES[code].level);
    }
  });

  it('a reporter gets typed data back by code, and a wrong payload does not compile', () => {
    const reporter = new MemoryReporter();
    const r: Reporter = reporter;
    r.emit(EXAMPLES['apply.change.done']);
    r.emit(EXAMPLES['http.retry']);
    const [done] = reporter.of('apply.change.done');
    expect(done?.data.status).toBe('succeeded');
    expect(reporter.of('http.retry')[0]?.data.waitMs).toBe(2000);
    // The same events, read the old way (code, level, message, JSON data), as reporters always have.
    expect(reporter.events.map((e) => e.data?.kind)).toEqual(['NomadAuthMethod', undefined]);
    // @ts-expect-error: apply.change.done has no field `count`, and needs a status
    r.emit({ code: 'apply.change.done', level: 'info', message: 'x', data: { kind: 'NomadAuthMethod', name: 'okta', action: 'update', count: 1 } });
    // @ts-expect-error: not a code of the catalogue
    r.emit({ code: 'apply.nothing', level: 'info', message: 'x', data: {} });
    // @ts-expect-error: state.lock.lost is only ever an error
    r.emit({ code: 'state.lock.lost', level: 'info', message: 'x', data: { lockId: 'l', path: 'p' } });
  });
});
