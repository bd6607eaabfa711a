import { describe, expect, it } from 'vitest';
import { applying, listing, planning, showing, storyPerTest } from '../library/story.js';

/*
 * Regression: `state list` / `state show` failed with "environment variable … is not set"
 * when a secret's variable was unset, although they send no secret. They read the manifests only to
 * find the state backend. The commands' own code in-process (`Story.run`), the apply's runs on the story's
 * ManualClock.
 */

const story = storyPerTest();

describe('state commands send no secret and need none', () => {
  it('state list and show work with the secrets\' environment variables and files missing', async () => {
    const ws = await story({ copyExamples: true });
    const apply = await ws.run(applying());
    expect(apply.code, apply.stderr).toBe(0);
    await ws.write('nomad/file-secret.yaml', `kind: NomadAuthMethod
name: from-file
spec:
  type: OIDC
  tokenLocality: local
  maxTokenTtl: 1h
  config:
    oidcDiscoveryUrl: https://idp.example.com
    oidcClientId: abc
    oidcClientSecret: { fromFile: missing-secret.txt }
`);
    const noSecrets = { OKTA_CLIENT_SECRET: '', VPC_DB_PASSWORD: '' };

    const list = await ws.run(listing(), { env: noSecrets });
    expect(list.stderr).not.toContain('is not set');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('NomadAuthMethod/okta');

    const show = await ws.run(showing('NoCodeWorkspace/vpc-dev'), { env: noSecrets });
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ kind: 'NoCodeWorkspace', name: 'vpc-dev' });

    // A command that sends secrets still stops before any request, naming the variable.
    const plan = await ws.run(planning(), { env: noSecrets });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('OKTA_CLIENT_SECRET is not set');
  });
});
