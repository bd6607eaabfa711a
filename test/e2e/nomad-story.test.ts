import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drift } from '../../src/operations/index.js';
import { parseSavedPlan } from '../../src/plan/serialize.js';
import { hasChanges } from '../../src/plan/types.js';
import { renderApplyResultText } from '../../src/views/apply-result.js';
import { renderDriftJson } from '../../src/views/drift.js';
import { renderPlanJson } from '../../src/views/plan-json.js';
import { renderPlanText } from '../../src/views/plan-text.js';
import { onClock, problemsOf, refusal, storyPerTest, type Story } from '../library/story.js';
import { givenApplied, openWorkspace, spawnCli, waitFor, type Workspace } from './harness.js';

/*
 * Nomad auth methods end to end: the library (plan, apply, drift) against the Nomad simulator in this process,
 * asserting on plan data, the views the CLI prints and the simulator's request log. What only a process shows
 * (no terminal to confirm on, a process killed mid-apply) runs the built CLI at the end.
 */

const SETTINGS = `kind: Settings
name: default
spec:
  state: { backend: local, path: .converge/state.json }
`;

function authMethods(opts: { defaultOn?: 'okta' | 'gh'; ttl?: string; claim?: string } = {}): string {
  const d = opts.defaultOn ?? 'okta';
  return `kind: NomadAuthMethod
name: okta
spec:
  type: OIDC
  tokenLocality: global
  maxTokenTtl: ${opts.ttl ?? '1h'}
  default: ${d === 'okta'}
  config:
    oidcDiscoveryUrl: https://acme.okta.example
    oidcClientId: 0oa1
    oidcClientSecret: { fromEnv: OKTA_CLIENT_SECRET }
    boundAudiences: [0oa1]
    allowedRedirectUris: [https://nomad.example.com/ui/settings/tokens, http://localhost:4649/oidc/callback]
    claimMappings: { ${opts.claim ?? 'email'}: email }
    listClaimMappings: { groups: groups }
---
kind: NomadAuthMethod
name: gh
spec:
  type: JWT
  tokenLocality: local
  maxTokenTtl: 30m
  default: ${d === 'gh'}
  config:
    jwksUrl: https://token.actions.example/.well-known/jwks
    boundIssuer: [https://token.actions.example]
    boundAudiences: [nomad]
    claimMappings: { repository: repo }
`;
}

const story = storyPerTest();

/** What `plan --detailed-exitcode` exits 0 on: nothing to change, nothing to adopt. */
async function clean(s: Story, extraEnv?: Record<string, string>): Promise<boolean> {
  return !hasChanges((await s.plan({}, extraEnv))!.run.plan);
}

/** The methods as written (by default: okta the default) applied by converge; the request log cleared. */
async function applied(s: Story, opts: Parameters<typeof authMethods>[0] = {}): Promise<void> {
  await s.write('auth.yaml', authMethods(opts));
  await s.apply();
  s.sandbox.log.clear();
}

describe('Nomad auth methods end to end (library ↔ simulator in-process)', () => {
  // Each test starts from a fresh simulator and directory, and first makes the world it needs
  // (`applied`), so any one of them runs alone (`-t`).
  let s: Story;
  beforeEach(async () => {
    s = await story();
    await s.write('settings.yaml', SETTINGS);
    await s.write('auth.yaml', authMethods());
  });

  it('plans creates without sending a single write', async () => {
    const r = await s.tryPlan();
    expect(r.problems).toBe('');
    const plan = r.result!.run.plan;
    expect(hasChanges(plan)).toBe(true);
    const text = renderPlanText(plan, { color: false });
    expect(text).toContain('NomadAuthMethod/okta');
    expect(text).toMatch(/2 to create/);
    expect(s.sandbox.log.writes()).toEqual([]);
  });

  it('applies, then a re-plan shows no changes', async () => {
    const a = await s.apply();
    expect(a.status).toBe('applied');
    const p = (await s.plan())!.run.plan;
    expect(hasChanges(p)).toBe(false);
    expect(renderPlanText(p, { color: false })).toContain('No changes');
  });

  it('never prints the client secret', async () => {
    await applied(s);
    const r = await s.tryPlan();
    expect(renderPlanJson(r.result!.run.plan) + r.problems + r.result!.saved).not.toContain(s.env.OKTA_CLIENT_SECRET);
  });

  it('treats 1h and 60m as the same duration', async () => {
    await applied(s);
    await s.write('auth.yaml', authMethods({ ttl: '60m' }));
    expect(await clean(s)).toBe(true);
  });

  it('shows a secret change as an update without the value', async () => {
    await applied(s);
    const p = await s.plan({}, { OKTA_CLIENT_SECRET: 'rotated-secret-Qm42' });
    const json = renderPlanJson(p!.run.plan);
    const plan = JSON.parse(json) as { changes: { name: string; action: string; fields: { path: string; sensitive: boolean; after: unknown }[] }[] };
    const okta = plan.changes.find((c) => c.name === 'okta');
    expect(okta?.action).toBe('update');
    const secret = okta?.fields.find((f) => f.path.includes('oidcClientSecret'));
    expect(secret?.sensitive).toBe(true);
    expect(secret?.after).toBe('(sensitive)');
    expect(json + renderPlanText(p!.run.plan, { color: false })).not.toContain('rotated-secret-Qm42');
  });

  it('applies a rotated secret: one write that moves the Hash, then no changes with the new secret', async () => {
    await applied(s);
    const rotated = { OKTA_CLIENT_SECRET: 'rotated-secret-Qm42' };
    const hashOf = async () =>
      ((await (await fetch(`${s.sandbox.nomad.url}/v1/acl/auth-methods`)).json()) as { Name: string; Hash: string }[]).find((m) => m.Name === 'okta')?.Hash;
    const before = await hashOf();
    s.sandbox.log.clear();
    const a = await s.tryApply({}, rotated);
    expect(a.report.status).toBe('applied');
    if (a.report.status !== 'applied') return;
    expect(a.report.result.counts.failed).toBe(0);
    expect(s.writes('nomad')).toEqual(['POST /v1/acl/auth-method/okta']);
    expect(await hashOf()).not.toBe(before);
    expect(renderApplyResultText(a.report.result, a.report.run.plan) + renderPlanText(a.report.run.plan, { color: false }) + a.problems).not.toContain('rotated-secret-Qm42');
    expect(await clean(s, rotated)).toBe(true);
  });

  it('detects a change made outside converge as drift and names the field', async () => {
    await applied(s);
    const url = `${s.sandbox.nomad.url}/v1/acl/auth-method/gh`;
    const headers = { 'X-Nomad-Token': s.sandbox.nomad.managementToken };
    const live = (await (await fetch(url, { headers })).json()) as Record<string, unknown>;
    live.TokenLocality = 'global';
    const w = await fetch(url, { method: 'POST', headers, body: JSON.stringify(live) });
    expect(w.status).toBe(200);
    const d = await s.drift();
    expect(d!.run.plan.drift.length).toBeGreaterThan(0);
    const report = JSON.parse(renderDriftJson(d!.run.plan)) as { drift: { name: string; cause: string; fields: { path: string }[] }[] };
    const gh = report.drift.find((x) => x.name === 'gh');
    expect(gh?.cause).toBe('outside');
    expect(gh?.fields.map((f) => f.path)).toContain('tokenLocality');
  });

  it('refuses a saved plan once live state moved, naming object and field', async () => {
    await applied(s);
    const saved = (await s.plan())!.saved;
    const url = `${s.sandbox.nomad.url}/v1/acl/auth-method/gh`;
    const headers = { 'X-Nomad-Token': s.sandbox.nomad.managementToken };
    const live = (await (await fetch(url, { headers })).json()) as Record<string, unknown>;
    live.MaxTokenTTL = '2h';
    await fetch(url, { method: 'POST', headers, body: JSON.stringify(live) });
    s.sandbox.log.clear();
    const why = await refusal(s.tryApply({ savedPlan: parseSavedPlan(saved, join(s.dir, 'plan.json')) }));
    expect(why).toContain('stale');
    expect(why).toContain('NomadAuthMethod/gh');
    expect(why).toContain('maxTokenTtl');
    expect(s.sandbox.log.writes()).toEqual([]);
  });

  it('moves the default from one method to another (unsets the old one first)', async () => {
    await applied(s);
    await s.write('auth.yaml', authMethods({ defaultOn: 'gh' }));
    const a = await s.tryApply();
    expect(a.problems).not.toContain('default method already exists');
    expect(a.report.status === 'applied' && a.report.result.counts.failed).toBe(0);
    expect(await clean(s)).toBe(true);
  });

  it('converges through injected 429/500/503 faults', async () => {
    await applied(s, { defaultOn: 'gh' });
    s.sandbox.nomad.faults.set({ rate429: 0.1, rate500: 0.1, rate503: 0.1, seed: 7 });
    s.sandbox.log.clear();
    try {
      await s.write('auth.yaml', authMethods({ defaultOn: 'gh', claim: 'mail' }));
      expect((await s.apply()).status).toBe('applied');
      // The story is about faults: some must have been injected, or it tested a clean run.
      expect(s.sandbox.log.entries({ service: 'nomad' }).filter((e) => e.fault !== undefined).length).toBeGreaterThan(0);
    } finally {
      s.sandbox.nomad.faults.reset();
    }
    expect(await clean(s)).toBe(true);
  });

  it('refuses a non-management token before any write', async () => {
    await applied(s, { defaultOn: 'gh', claim: 'mail' });
    await s.write('auth.yaml', authMethods({ defaultOn: 'gh', claim: 'email' }));
    s.sandbox.log.clear();
    const why = await refusal(s.tryApply({}, { NOMAD_TOKEN: s.sandbox.nomad.clientToken }));
    expect(why).toMatch(/management/i);
    expect(s.sandbox.log.writes()).toEqual([]);
  });

  it('deletes an owned method removed from the manifests', async () => {
    await applied(s, { defaultOn: 'gh' });
    await s.write('auth.yaml', authMethods({ defaultOn: 'gh' }).split('---')[1] ?? '');
    expect((await s.apply()).status).toBe('applied');
    const res = await fetch(`${s.sandbox.nomad.url}/v1/acl/auth-methods`);
    const names = ((await res.json()) as { Name: string }[]).map((m) => m.Name);
    expect(names).toEqual(['gh']);
    expect(await clean(s)).toBe(true);
  });
});

describe('Nomad auth methods end to end: replica lag, hidden drift (library ↔ simulator in-process)', () => {
  let s: Story;
  // A fresh applied world per test, so each runs alone (`-t`).
  beforeEach(async () => {
    // A replica that lags by a minute: long enough that every read below sees it behind. Real time: a manual
    // clock moved on while a call waits would let the replica catch up (nothing here waits on the clock).
    s = await story({ sandbox: { replicationLagMs: 60_000 }, realTime: true });
    await s.write('settings.yaml', SETTINGS);
    await applied(s);
  });

  it('plan --region of a lagging replica reports the lag apart from drift: no change, no write', async () => {
    const p = await s.tryPlan({ region: 'europe' });
    expect(hasChanges(p.result!.run.plan)).toBe(false);
    expect(renderPlanText(p.result!.run.plan, { color: false })).toContain('No changes');
    expect(p.problems).toMatch(/replication lag: Nomad region europe is behind/);
    expect(p.problems).toContain('NomadAuthMethod okta not copied yet');
    // The plan read the authoritative region; the replica was only listed for the comparison.
    const reads = s.sandbox.log.entries({ service: 'nomad' });
    expect(reads.filter((e) => e.query.includes('region=europe')).map((e) => e.path)).toEqual(['/v1/acl/auth-methods']);
    expect(s.sandbox.log.writes()).toEqual([]);

    const h = s.host();
    const d = await onClock(s.clock, drift(h, { paths: ['.'], region: 'europe' }));
    expect(d!.run.plan.drift).toEqual([]);
    expect(hasChanges(d!.run.plan)).toBe(false);
    expect(problemsOf(h)).toMatch(/replication lag/);

    s.sandbox.nomad.setReplicationLag(0);
    const caughtUp = await s.tryPlan({ region: 'europe' });
    expect(hasChanges(caughtUp.result!.run.plan)).toBe(false);
    expect(caughtUp.problems).not.toMatch(/is behind/);
    expect(s.events.events.map((e) => e.message)).toContain('Nomad region europe has every auth method of the authoritative region (no replication lag)');
  });

  it('a rewrite outside converge that changes only the Hash is possible hidden drift, never a change', async () => {
    // `nomad acl auth-method update` sends back the Config it read, storing the literal "redacted" (docs/reference/nomad-api.md §5).
    const url = `${s.sandbox.nomad.url}/v1/acl/auth-method/okta`;
    const headers = { 'X-Nomad-Token': s.sandbox.nomad.managementToken };
    const live = (await (await fetch(url, { headers })).json()) as Record<string, unknown>;
    const hashWithRealSecret = live.Hash;
    const w = await fetch(url, { method: 'POST', headers, body: JSON.stringify(live) });
    expect(w.status).toBe(200);

    expect(await clean(s)).toBe(true);
    const d = (await s.drift())!.run.plan;
    expect(d.drift.length).toBeGreaterThan(0);
    const driftJson = renderDriftJson(d);
    const report = JSON.parse(driftJson) as { drift: { name: string; cause: string }[] };
    expect(report.drift.filter((x) => x.name === 'okta').map((x) => x.cause)).toEqual(['hidden']);
    expect(driftJson).not.toContain(s.env.OKTA_CLIENT_SECRET);

    // Settling it: --rewrite plans an update carrying the secret, apply sends it, drift clears.
    const rp = (await s.plan({ rewrite: ['NomadAuthMethod/okta'] }))!.run.plan;
    expect(hasChanges(rp)).toBe(true);
    const rpText = renderPlanText(rp, { color: false });
    expect(rpText).toMatch(/~ NomadAuthMethod\/okta/);
    expect(rpText).toContain('rewrite requested (--rewrite)');
    expect(rpText).toMatch(/config\.oidcClientSecret: \(sensitive\) → \(sensitive\)/);
    s.sandbox.log.clear();
    const ra = await s.apply({ rewrite: ['NomadAuthMethod/okta'] });
    expect(ra.status).toBe('applied');
    expect(s.writes('nomad')).toEqual(['POST /v1/acl/auth-method/okta']);
    // Hash covers the secret (docs/reference/nomad-api.md §1.2): back to the value it had with the manifest's secret.
    const after = (await (await fetch(url, { headers })).json()) as Record<string, unknown>;
    expect(after.Hash).toBe(hashWithRealSecret);
    const settled = (await s.drift())!.run.plan;
    expect(settled.drift).toEqual([]);
    expect(hasChanges(settled)).toBe(false);
    const raText = ra.status === 'applied' ? renderApplyResultText(ra.result, ra.run.plan) : '';
    expect(raText + rpText).not.toContain(s.env.OKTA_CLIENT_SECRET);

    const bad = await refusal(s.tryPlan({ rewrite: ['NomadAuthMethod/nobody'] }));
    expect(bad).toMatch(/--rewrite NomadAuthMethod\/nobody needs an object that is both in the manifests and live/);
  });
});

describe('Nomad auth methods: what only the built CLI process shows', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await openWorkspace();
    await ws.write('settings.yaml', SETTINGS);
    await ws.write('auth.yaml', authMethods());
  });
  afterEach(async () => ws?.close());

  it('refuses to apply without a terminal or --auto-approve', async () => {
    const r = await ws.cli(['apply']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--auto-approve');
    expect(ws.sandbox.log.writes()).toEqual([]);
  });

  it('an apply killed mid-way loses nothing it did: the rerun finishes and the next plan is clean', async () => {
    await givenApplied(ws);
    await ws.write('auth.yaml', authMethods({ ttl: '2h', claim: 'mail' }));
    ws.sandbox.log.clear();
    ws.sandbox.nomad.faults.set({ latencyMs: 300 });
    const child = spawnCli(['apply', '--auto-approve'], { cwd: ws.dir, env: ws.env });
    const exited = new Promise<void>((r) => child.on('close', () => r()));
    try {
      await waitFor(() => ws.sandbox.log.writes('nomad').some((e) => e.status === 200), 20_000, 'the first write');
      child.kill('SIGKILL');
      await exited;
    } finally {
      ws.sandbox.nomad.faults.reset();
    }
    const doneBeforeKill = ws.sandbox.log.writes('nomad').filter((e) => e.status === 200).length;
    expect(doneBeforeKill).toBeGreaterThanOrEqual(1);
    expect(doneBeforeKill).toBeLessThan(2);

    const again = await ws.cli(['apply', '--auto-approve']);
    expect(again.code).toBe(0);
    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain('No changes');
  });
});
