import { describe, expect, it } from 'vitest';
import { addressKey } from '../../src/model/kinds.js';
import { CANARY, gh, okta, policy, role, rule, vpcModule, workspace } from './fixtures.js';
import { World } from './harness.js';

function world(): World {
  const w = new World();
  w.env = { OKTA_SECRET: CANARY };
  return w;
}

describe('applyPlan', () => {
  it('sends one batch per kind: deletes in reverse kind order, then writes in kind order', async () => {
    const w = world();
    await w.converge([okta(), rule('r1', 'okta'), vpcModule(), workspace('ws-a')]);
    w.nomad.calls.length = 0;
    w.tfe.calls.length = 0;
    const run = await w.plan([gh(), rule('r2', 'gh'), workspace('ws-b', 'lambda'), { ...vpcModule(), name: 'lambda' }]);
    const order: string[] = [];
    const orig = [w.nomad.apply.bind(w.nomad), w.tfe.apply.bind(w.tfe)] as const;
    w.nomad.apply = (b, c) => (order.push(`${b.phase}:${b.kind}`), orig[0](b, c));
    w.tfe.apply = (b, c) => (order.push(`${b.phase}:${b.kind}`), orig[1](b, c));
    const result = await w.apply(run);
    expect(order).toEqual([
      'delete:NoCodeWorkspace',
      'delete:NoCodeModule',
      'delete:NomadBindingRule',
      'delete:NomadAuthMethod',
      'write:NomadAuthMethod',
      'write:NomadBindingRule',
      'write:NoCodeModule',
      'write:NoCodeWorkspace',
    ]);
    expect(result.counts).toEqual({ succeeded: 8, failed: 0, skipped: 0, awaiting: 0 });
  });

  it('skips a change whose dependency failed, with the reason, and never sends it', async () => {
    const w = world();
    w.tfe.failOn.add('NoCodeModule/vpc');
    w.nomad.failOn.add('NomadAuthMethod/okta');
    const run = await w.plan([okta(), rule('r1', 'okta'), gh(), rule('r2', 'gh'), vpcModule(), workspace('ws-a'), workspace('ws-b')]);
    const result = await w.apply(run);
    const by = Object.fromEntries(result.outcomes.map((o) => [addressKey(o), o]));
    expect(by['NomadAuthMethod/okta']?.status).toBe('failed');
    expect(by['NomadBindingRule/r1']).toMatchObject({ status: 'skipped', detail: { code: 'dependency-not-done', dependency: 'NomadAuthMethod/okta', status: 'failed' } });
    expect(by['NomadBindingRule/r2']?.status).toBe('succeeded');
    expect(by['NoCodeWorkspace/ws-a']).toMatchObject({ status: 'skipped', detail: { code: 'dependency-not-done', dependency: 'NoCodeModule/vpc' } });
    expect(result.counts).toEqual({ succeeded: 2, failed: 2, skipped: 3, awaiting: 0 });
    const sent = [...w.nomad.calls, ...w.tfe.calls].flatMap((c) => c.changes);
    expect(sent).not.toContain('create:NomadBindingRule/r1');
    expect(sent).not.toContain('create:NoCodeWorkspace/ws-a');
    // Nothing that failed reached state; what succeeded did.
    expect(w.backend.doc.records.map(addressKey)).toEqual(['NomadAuthMethod/gh', 'NomadBindingRule/r2']);
  });

  it('does not delete a dependency whose dependent failed to delete', async () => {
    const w = world();
    await w.converge([okta(), rule('r1', 'okta')]);
    w.nomad.failOn.add('NomadBindingRule/r1');
    const result = await w.apply(await w.plan([]));
    expect(result.outcomes.map((o) => `${addressKey(o)}:${o.status}`)).toEqual(['NomadBindingRule/r1:failed', 'NomadAuthMethod/okta:skipped']);
    expect(w.nomad.live.has('NomadAuthMethod/okta')).toBe(true);
  });

  it('an object with several dependencies is skipped when any of them fails, and so are its own dependents', async () => {
    const w = world();
    w.nomad.failOn.add('NomadAclPolicy/p1');
    const run = await w.plan([policy('p1'), policy('p2'), role('dev', ['p2', 'p1']), okta(), rule('r1', 'okta', { bindName: 'dev' }), rule('r2', 'okta', { bindType: 'policy', bindName: 'p2' })]);
    const result = await w.apply(run);
    const by = Object.fromEntries(result.outcomes.map((o) => [addressKey(o), o]));
    expect(by['NomadAclRole/dev']).toMatchObject({ status: 'skipped', detail: { code: 'dependency-not-done', dependency: 'NomadAclPolicy/p1', status: 'failed' } });
    // r1 binds the role dev (its bindName), which was skipped.
    expect(by['NomadBindingRule/r1']).toMatchObject({ status: 'skipped', detail: { code: 'dependency-not-done', dependency: 'NomadAclRole/dev', status: 'skipped' } });
    expect(by['NomadBindingRule/r2']?.status).toBe('succeeded');
  });

  it('does not delete a policy whose role failed to delete', async () => {
    const w = world();
    await w.converge([policy('p1'), role('dev', ['p1'])]);
    w.nomad.failOn.add('NomadAclRole/dev');
    const result = await w.apply(await w.plan([]));
    expect(result.outcomes.map((o) => `${addressKey(o)}:${o.status}`)).toEqual(['NomadAclRole/dev:failed', 'NomadAclPolicy/p1:skipped']);
  });

  it('a provider that throws fails its batch; other outcomes are kept', async () => {
    const w = world();
    w.tfe.throwOn.add('NoCodeModule');
    const result = await w.apply(await w.plan([gh(), vpcModule(), workspace('ws-a')]));
    expect(result.outcomes.map((o) => `${addressKey(o)}:${o.status}`)).toEqual([
      'NomadAuthMethod/gh:succeeded',
      'NoCodeModule/vpc:failed',
      'NoCodeWorkspace/ws-a:skipped',
    ]);
    expect(result.outcomes[1]?.error).toMatchObject({ code: 'apply.provider-error', source: 'internal' });
  });

  it('a change the provider reports no outcome for is failed, not lost', async () => {
    const w = world();
    w.nomad.dropOutcomeFor = 'NomadAuthMethod/gh';
    const result = await w.apply(await w.plan([gh()]));
    expect(result.outcomes).toEqual([expect.objectContaining({ name: 'gh', status: 'failed', error: expect.objectContaining({ code: 'apply.no-outcome' }) })]);
  });

  it('a create whose sent mark cannot be saved is not sent (nothing starts after a failed state write)', async () => {
    const w = world();
    w.backend.write = () => Promise.reject(new Error('no space left on device'));
    const result = await w.apply(await w.plan([gh(), okta()]));
    expect(result.outcomes.map((o) => [addressKey(o), o.status, o.detail?.code])).toEqual([
      ['NomadAuthMethod/gh', 'skipped', 'earlier-not-recorded'],
      ['NomadAuthMethod/okta', 'skipped', 'earlier-not-recorded'],
    ]);
    expect(w.nomad.calls.flatMap((c) => c.changes)).toEqual([]);
  });

  it('persists state after each change and emits start/done events', async () => {
    const w = world();
    await w.converge([gh(), okta()]);
    // A record per create, after a mark per create before it was sent: the state had no record yet, so a rerun
    // after a kill would otherwise have to ask whose they are (decisions.md §28).
    expect(w.backend.writes).toBe(4);
    expect(w.backend.doc.serial).toBe(4);
    expect(w.backend.doc.sent).toBeUndefined();
    const events = w.reporter.events.filter((e) => e.code.startsWith('apply.change'));
    expect(events.map((e) => `${e.code}:${String(e.data?.name)}`)).toEqual([
      'apply.change.start:gh',
      'apply.change.start:okta',
      'apply.change.done:gh',
      'apply.change.done:okta',
    ]);
    expect(events[2]?.data).toMatchObject({ kind: 'NomadAuthMethod', name: 'gh', action: 'create', status: 'succeeded' });
    expect(JSON.stringify(w.reporter.events)).not.toContain(CANARY);
    expect(JSON.stringify(w.backend.doc)).not.toContain(CANARY);
  });

  it('a cancelled apply skips what has not started', async () => {
    const w = world();
    const run = await w.plan([gh()]);
    const ac = new AbortController();
    ac.abort();
    const store = await (await import('../../src/state/state-store.js')).openStateStore(w.backend, { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    const { applyPlan } = await import('../../src/engine/index.js');
    const result = await applyPlan(run, { providers: w.providers, store, ctx: { ...w.ctx(), signal: ac.signal }, options: { runTimeoutMs: 1, pollIntervalMs: 1, concurrency: 1 } });
    expect(result.outcomes).toEqual([expect.objectContaining({ status: 'skipped', detail: { code: 'cancelled' } })]);
    expect(w.nomad.calls).toEqual([]);
  });
});
