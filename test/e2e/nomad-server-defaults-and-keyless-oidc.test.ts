import { afterEach, describe, expect, it } from 'vitest';
import { applying, drifting, openStory, planning, validating, type Story } from '../library/story.js';

/*
 * Regressions: Nomad fills an empty client-assertion Audience with the discovery URL
 * and an empty KeyIDHeader with `kid` / `x5t#S256` (docs/reference/nomad-api.md §3.3); converge saw those as
 * drift forever and also refused an assertion without audience. An OIDC method without a client secret
 * is valid on the server with PKCE or a keyless client assertion; converge refused it locally. Each command
 * runs its own code in this process (its text and exit code) against the Nomad simulator on its ManualClock.
 */

let ws: Story | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const method = (name: string, config: string) => `---
kind: NomadAuthMethod
name: ${name}
spec:
  type: OIDC
  tokenLocality: global
  maxTokenTtl: 1h
  config:
    oidcDiscoveryUrl: https://idp.example.com
    oidcClientId: ${name}
${config}`;

describe('Nomad server defaults and OIDC methods without a client secret', () => {
  it('apply, then the re-plan is clean and the apply reported no mismatch', async () => {
    ws = await openStory();
    await ws.write(
      'nomad.yaml',
      `kind: Settings
name: settings
spec:
  state: { backend: local, path: .converge/state.json }
` +
        method('pkce', '    oidcEnablePkce: true\n') +
        method('nomad-signed', '    oidcClientAssertion:\n      keySource: nomad\n') +
        method('key-id', '    oidcClientAssertion:\n      keySource: private_key\n      privateKey: { pemKeyFile: /etc/nomad/key.pem, keyId: k1 }\n') +
        method('cert', '    oidcClientAssertion:\n      keySource: private_key\n      privateKey: { pemKeyFile: /etc/nomad/key.pem, pemCertFile: /etc/nomad/cert.pem }\n'),
    );
    const validate = await ws.run(validating());
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).not.toContain('oidcClientSecret');

    const apply = await ws.run(applying());
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout + apply.stderr).not.toContain("Nomad stored different values");

    const replan = await ws.run(planning({ detailedExitcode: true }));
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
    const drift = await ws.run(drifting());
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);
  });

  it('a confidential OIDC method without a secret is applied with a located warning', async () => {
    ws = await openStory();
    await ws.write('nomad.yaml', `kind: Settings\nname: settings\nspec:\n  state: { backend: local, path: .converge/state.json }\n` + method('plain', ''));
    const apply = await ws.run(applying());
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain('has no `spec.config.oidcClientSecret`');
    expect(apply.stderr).toMatch(/nomad\.yaml line \d+, column \d+/);
  });
});
