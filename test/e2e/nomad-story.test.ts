import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { givenApplied, openWorkspace, spawnCli, waitFor, type Workspace } from './harness.js';

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

describe('Nomad auth methods end to end (built CLI ↔ sandbox over loopback)', () => {
  // Each test starts from a fresh sandbox and directory, and first makes the world it needs
  // (`applied`), so any one of them runs alone (`-t`).
  let ws: Workspace;
  beforeEach(async () => {
    ws = await openWorkspace();
    await ws.write('settings.yaml', SETTINGS);
    await ws.write('auth.yaml', authMethods());
  });
  afterEach(async () => ws?.close());

  /** The methods as written (by default: okta the default) applied by converge; the request log cleared. */
  async function applied(opts: Parameters<typeof authMethods>[0] = {}): Promise<void> {
    await ws.write('auth.yaml', authMethods(opts));
    await givenApplied(ws);
  }

  it('plans creates without sending a single write', async () => {
    const r = await ws.cli(['plan', '--detailed-exitcode']);
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('NomadAuthMethod/okta');
    expect(r.stdout).toMatch(/2 to create/);
    expect(ws.sandbox.log.writes()).toEqual([]);
  });

  it('refuses to apply without a terminal or --auto-approve', async () => {
    const r = await ws.cli(['apply']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--auto-approve');
    expect(ws.sandbox.log.writes()).toEqual([]);
  });

  it('applies, then a re-plan shows no changes', async () => {
    const a = await ws.cli(['apply', '--auto-approve']);
    expect(a.stderr + a.stdout).not.toContain('failed');
    expect(a.code).toBe(0);
    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain('No changes');
  });

  it('never prints the client secret', async () => {
    await applied();
    const p = await ws.cli(['plan', '--json']);
    const all = p.stdout + p.stderr;
    expect(all).not.toContain(ws.env.OKTA_CLIENT_SECRET);
  });

  it('treats 1h and 60m as the same duration', async () => {
    await applied();
    await ws.write('auth.yaml', authMethods({ ttl: '60m' }));
    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.code).toBe(0);
  });

  it('shows a secret change as an update without the value', async () => {
    await applied();
    const p = await ws.cli(['plan', '--json'], { OKTA_CLIENT_SECRET: 'rotated-secret-Qm42' });
    expect(p.code).toBe(0);
    const plan = JSON.parse(p.stdout) as { changes: { name: string; action: string; fields: { path: string; sensitive: boolean; after: unknown }[] }[] };
    const okta = plan.changes.find((c) => c.name === 'okta');
    expect(okta?.action).toBe('update');
    const secret = okta?.fields.find((f) => f.path.includes('oidcClientSecret'));
    expect(secret?.sensitive).toBe(true);
    expect(secret?.after).toBe('(sensitive)');
    expect(p.stdout).not.toContain('rotated-secret-Qm42');
  });

  it('applies a rotated secret: one write that moves the Hash, then no changes with the new secret', async () => {
    await applied();
    const rotated = { OKTA_CLIENT_SECRET: 'rotated-secret-Qm42' };
    const hashOf = async () =>
      ((await (await fetch(`${ws.sandbox.nomad.url}/v1/acl/auth-methods`)).json()) as { Name: string; Hash: string }[]).find((m) => m.Name === 'okta')?.Hash;
    const before = await hashOf();
    ws.sandbox.log.clear();
    const a = await ws.cli(['apply', '--auto-approve'], rotated);
    expect(a.code).toBe(0);
    expect(ws.sandbox.log.writes('nomad').map((e) => `${e.method} ${e.path}`)).toEqual(['POST /v1/acl/auth-method/okta']);
    expect(await hashOf()).not.toBe(before);
    expect(a.stdout + a.stderr).not.toContain('rotated-secret-Qm42');
    expect((await ws.cli(['plan', '--detailed-exitcode'], rotated)).code).toBe(0);
  });

  it('detects a change made outside converge as drift and names the field', async () => {
    await applied();
    const url = `${ws.sandbox.nomad.url}/v1/acl/auth-method/gh`;
    const headers = { 'X-Nomad-Token': ws.sandbox.nomad.managementToken };
    const live = (await (await fetch(url, { headers })).json()) as Record<string, unknown>;
    live.TokenLocality = 'global';
    const w = await fetch(url, { method: 'POST', headers, body: JSON.stringify(live) });
    expect(w.status).toBe(200);
    const d = await ws.cli(['drift', '--json']);
    expect(d.code).toBe(2);
    const report = JSON.parse(d.stdout) as { drift: { name: string; cause: string; fields: { path: string }[] }[] };
    const gh = report.drift.find((x) => x.name === 'gh');
    expect(gh?.cause).toBe('outside');
    expect(gh?.fields.map((f) => f.path)).toContain('tokenLocality');
  });

  it('refuses a saved plan once live state moved, naming object and field', async () => {
    await applied();
    const saved = await ws.cli(['plan', '--out', 'plan.json']);
    expect(saved.code).toBe(0);
    const url = `${ws.sandbox.nomad.url}/v1/acl/auth-method/gh`;
    const headers = { 'X-Nomad-Token': ws.sandbox.nomad.managementToken };
    const live = (await (await fetch(url, { headers })).json()) as Record<string, unknown>;
    live.MaxTokenTTL = '2h';
    await fetch(url, { method: 'POST', headers, body: JSON.stringify(live) });
    const a = await ws.cli(['apply', '--plan', 'plan.json']);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('stale');
    expect(a.stderr).toContain('NomadAuthMethod/gh');
    expect(a.stderr).toContain('maxTokenTtl');
  });

  it('moves the default from one method to another (unsets the old one first)', async () => {
    await applied();
    await ws.write('auth.yaml', authMethods({ defaultOn: 'gh' }));
    const a = await ws.cli(['apply', '--auto-approve']);
    expect(a.stderr).not.toContain('default method already exists');
    expect(a.code).toBe(0);
    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.code).toBe(0);
  });

  it('converges through injected 429/500/503 faults', async () => {
    await applied({ defaultOn: 'gh' });
    ws.sandbox.nomad.faults.set({ rate429: 0.1, rate500: 0.1, rate503: 0.1, seed: 7 });
    ws.sandbox.log.clear();
    try {
      await ws.write('auth.yaml', authMethods({ defaultOn: 'gh', claim: 'mail' }));
      const a = await ws.cli(['apply', '--auto-approve']);
      expect(a.code).toBe(0);
      // The story is about faults: some must have been injected, or it tested a clean run.
      expect(ws.sandbox.log.entries({ service: 'nomad' }).filter((e) => e.fault !== undefined).length).toBeGreaterThan(0);
    } finally {
      ws.sandbox.nomad.faults.reset();
    }
    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.code).toBe(0);
  });

  it('refuses a non-management token before any write', async () => {
    await applied({ defaultOn: 'gh', claim: 'mail' });
    await ws.write('auth.yaml', authMethods({ defaultOn: 'gh', claim: 'email' }));
    ws.sandbox.log.clear();
    const a = await ws.cli(['apply', '--auto-approve'], { NOMAD_TOKEN: ws.sandbox.nomad.clientToken });
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/management/i);
    expect(ws.sandbox.log.writes()).toEqual([]);
  });

  it('deletes an owned method removed from the manifests', async () => {
    await applied({ defaultOn: 'gh' });
    await ws.write('auth.yaml', authMethods({ defaultOn: 'gh' }).split('---')[1] ?? '');
    const a = await ws.cli(['apply', '--auto-approve']);
    expect(a.code).toBe(0);
    const res = await fetch(`${ws.sandbox.nomad.url}/v1/acl/auth-methods`);
    const names = ((await res.json()) as { Name: string }[]).map((m) => m.Name);
    expect(names).toEqual(['gh']);
    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.code).toBe(0);
  });
});

describe('Nomad auth methods end to end: replica lag, hidden drift, a killed apply', () => {
  let ws: Workspace;
  // A fresh applied world per test, so each runs alone (`-t`).
  beforeEach(async () => {
    // A replica that lags by a minute: long enough that every read below sees it behind.
    ws = await openWorkspace({ sandbox: { replicationLagMs: 60_000 } });
    await ws.write('settings.yaml', SETTINGS);
    await ws.write('auth.yaml', authMethods());
    await givenApplied(ws);
  });
  afterEach(async () => ws?.close());

  it('plan --region of a lagging replica reports the lag apart from drift: no change, no write', async () => {
    ws.sandbox.log.clear();
    const p = await ws.cli(['plan', '--region', 'europe', '--detailed-exitcode']);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain('No changes');
    expect(p.stderr).toMatch(/replication lag: Nomad region europe is behind/);
    expect(p.stderr).toContain('NomadAuthMethod okta not copied yet');
    // The plan read the authoritative region; the replica was only listed for the comparison.
    const reads = ws.sandbox.log.entries({ service: 'nomad' });
    expect(reads.filter((e) => e.query.includes('region=europe')).map((e) => e.path)).toEqual(['/v1/acl/auth-methods']);
    expect(ws.sandbox.log.writes()).toEqual([]);

    const d = await ws.cli(['drift', '--region', 'europe']);
    expect(d.code).toBe(0);
    expect(d.stderr).toMatch(/replication lag/);

    ws.sandbox.nomad.setReplicationLag(0);
    const caughtUp = await ws.cli(['plan', '--region', 'europe', '--detailed-exitcode']);
    expect(caughtUp.code).toBe(0);
    expect(caughtUp.stderr).not.toMatch(/is behind/);
    expect(caughtUp.stderr).toContain('Nomad region europe has every auth method of the authoritative region');
  });

  it('a rewrite outside converge that changes only the Hash is possible hidden drift, never a change', async () => {
    // `nomad acl auth-method update` sends back the Config it read, storing the literal "redacted" (docs/reference/nomad-api.md §5).
    const url = `${ws.sandbox.nomad.url}/v1/acl/auth-method/okta`;
    const headers = { 'X-Nomad-Token': ws.sandbox.nomad.managementToken };
    const live = (await (await fetch(url, { headers })).json()) as Record<string, unknown>;
    const hashWithRealSecret = live.Hash;
    const w = await fetch(url, { method: 'POST', headers, body: JSON.stringify(live) });
    expect(w.status).toBe(200);

    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.code).toBe(0);
    const d = await ws.cli(['drift', '--json']);
    expect(d.code).toBe(2);
    const report = JSON.parse(d.stdout) as { drift: { name: string; cause: string }[] };
    expect(report.drift.filter((x) => x.name === 'okta').map((x) => x.cause)).toEqual(['hidden']);
    expect(d.stdout + d.stderr).not.toContain(ws.env.OKTA_CLIENT_SECRET);

    // Settling it: --rewrite plans an update carrying the secret, apply sends it, drift clears.
    const rp = await ws.cli(['plan', '--rewrite', 'NomadAuthMethod/okta', '--detailed-exitcode']);
    expect(rp.code).toBe(2);
    expect(rp.stdout).toMatch(/~ NomadAuthMethod\/okta/);
    expect(rp.stdout).toContain('rewrite requested (--rewrite)');
    expect(rp.stdout).toMatch(/config\.oidcClientSecret: \(sensitive\) → \(sensitive\)/);
    ws.sandbox.log.clear();
    const ra = await ws.cli(['apply', '--rewrite', 'NomadAuthMethod/okta', '--auto-approve']);
    expect(ra.code, ra.stderr).toBe(0);
    expect(ws.sandbox.log.writes('nomad').map((e) => `${e.method} ${e.path}`)).toEqual(['POST /v1/acl/auth-method/okta']);
    // Hash covers the secret (docs/reference/nomad-api.md §1.2): back to the value it had with the manifest's secret.
    const after = (await (await fetch(url, { headers })).json()) as Record<string, unknown>;
    expect(after.Hash).toBe(hashWithRealSecret);
    expect((await ws.cli(['drift'])).code).toBe(0);
    expect(ra.stdout + ra.stderr + rp.stdout + rp.stderr).not.toContain(ws.env.OKTA_CLIENT_SECRET);

    const bad = await ws.cli(['plan', '--rewrite', 'NomadAuthMethod/nobody']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--rewrite NomadAuthMethod\/nobody needs an object that is both in the manifests and live/);
  });

  it('an apply killed mid-way loses nothing it did: the rerun finishes and the next plan is clean', async () => {
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
