import { describe, expect, it } from 'vitest';
import { stateRm } from '../../src/cli/commands/state.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { workspacePerTest } from '../e2e/harness.js';
import { applying, inStory, planning, storyPerTest } from '../library/story.js';

/*
 * Regressions from a new user's first week:
 * - "Success! 1 document in 1 file are valid." (and "1 documents", "1 manifest objects");
 * - `converge apply` without a terminal refused even with nothing to do (Terraform says "No changes", exit 0);
 * - `state rm --keep-tag` on an unnamed state talked about owner tags, which only a named state sets;
 * - `--target` refused a kind written in lower case and had no "did you mean" for a misspelt name.
 * The commands' own text runs in this process (on the sandbox's clock); the applies without a terminal run the
 * built CLI, whose standard input is no terminal.
 */

const workspace = workspacePerTest();
const story = storyPerTest();

describe('first-week messages', () => {
  it('validate of one document says it in the singular', async () => {
    const s = await story();
    await s.write('one.yaml', 'kind: NoCodeModule\nname: vpc\nspec:\n  registryModule: acme/vpc/aws\n');
    const r = await inStory(s, (h) => validateCommand(h, ['one.yaml'], {}));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Success! 1 document in 1 file is valid.\n');
  });

  it('apply without a terminal: nothing to do exits 0; something to do still asks for --auto-approve', async () => {
    const ws = await workspace({ copyExamples: true });
    const first = await ws.cli(['apply', '.']);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('refusing to apply without confirmation');
    expect((await inStory(ws, applying({ pollInterval: '50ms' }))).code).toBe(0);
    const again = await ws.cli(['apply', '.']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('state rm --keep-tag on an unnamed state says nothing about tags', async () => {
    const s = await story({ copyExamples: true });
    expect((await inStory(s, applying())).code).toBe(0);
    const r = await inStory(s, (h) => stateRm(h, 'NoCodeWorkspace/vpc-dev', ['.'], { keepTag: true }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Removed NoCodeWorkspace/vpc-dev from state');
    expect(r.stdout).not.toMatch(/tag/i);
  });

  it('--target takes a lower-case kind and suggests the name it was probably meant to be', async () => {
    const s = await story({ copyExamples: true });
    const lower = await inStory(s, planning({ target: ['nomadauthmethod/okta'] }));
    expect(lower.code, lower.stderr).toBe(0);
    expect(lower.stdout).toContain('NomadAuthMethod/okta');
    const typo = await inStory(s, planning({ target: ['NomadAuthMethod/otka'] }));
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('Did you mean `--target NomadAuthMethod/okta`?');
    const kind = await inStory(s, planning({ target: ['NomadAuthMethods/okta'] }));
    expect(kind.code).toBe(1);
    expect(kind.stderr).toContain('did you mean --target NomadAuthMethod/okta?');
  });
});
