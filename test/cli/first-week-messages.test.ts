import { describe, expect, it } from 'vitest';
import { workspacePerTest } from '../e2e/harness.js';

/*
 * Regressions from a new user's first week, each through the built CLI:
 * - "Success! 1 document in 1 file are valid." (and "1 documents", "1 manifest objects");
 * - `converge apply` without a terminal refused even with nothing to do (Terraform says "No changes", exit 0);
 * - `state rm --keep-tag` on an unnamed state talked about owner tags, which only a named state sets;
 * - `--target` refused a kind written in lower case and had no "did you mean" for a misspelt name.
 */

const workspace = workspacePerTest();

describe('first-week messages', () => {
  it('validate of one document says it in the singular', async () => {
    const ws = await workspace();
    await ws.write('one.yaml', 'kind: NoCodeModule\nname: vpc\nspec:\n  registryModule: acme/vpc/aws\n');
    const r = await ws.cli(['validate', 'one.yaml']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Success! 1 document in 1 file is valid.\n');
  });

  it('apply without a terminal: nothing to do exits 0; something to do still asks for --auto-approve', async () => {
    const ws = await workspace({ copyExamples: true });
    const first = await ws.cli(['apply', '.']);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('refusing to apply without confirmation');
    expect((await ws.cli(['apply', '--auto-approve', '.'])).code).toBe(0);
    const again = await ws.cli(['apply', '.']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('state rm --keep-tag on an unnamed state says nothing about tags', async () => {
    const ws = await workspace({ copyExamples: true });
    expect((await ws.cli(['apply', '--auto-approve', '.'])).code).toBe(0);
    const r = await ws.cli(['state', 'rm', '--keep-tag', 'NoCodeWorkspace/vpc-dev', '.']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Removed NoCodeWorkspace/vpc-dev from state');
    expect(r.stdout).not.toMatch(/tag/i);
  });

  it('--target takes a lower-case kind and suggests the name it was probably meant to be', async () => {
    const ws = await workspace({ copyExamples: true });
    const lower = await ws.cli(['plan', '--target', 'nomadauthmethod/okta', '.']);
    expect(lower.code, lower.stderr).toBe(0);
    expect(lower.stdout).toContain('NomadAuthMethod/okta');
    const typo = await ws.cli(['plan', '--target', 'NomadAuthMethod/otka', '.']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('Did you mean `--target NomadAuthMethod/okta`?');
    const kind = await ws.cli(['plan', '--target', 'NomadAuthMethods/okta', '.']);
    expect(kind.code).toBe(1);
    expect(kind.stderr).toContain('did you mean --target NomadAuthMethod/okta?');
  });
});
