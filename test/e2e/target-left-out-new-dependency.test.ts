import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applying, openStory, planning, type Story } from '../library/story.js';
import { actions, bindingRule, jwtMethod } from './fixtures-first-use.js';

/*
 * `--target` a binding rule whose auth method is new failed, with a hint blaming the
 * rule. Now a target brings what it depends on, and the plan says so, as Terraform does
 * (decisions.md §19). Each command runs its own code in this process (its text and exit code) against the
 * Nomad simulator over loopback, on its ManualClock.
 */

describe('--target includes what the target depends on (built CLI ↔ sandbox)', () => {
  let ws: Story;
  // A fresh sandbox and directory per test, so each runs alone (`-t`).
  beforeEach(async () => {
    ws = await openStory();
    await ws.write('methods.yaml', `${jwtMethod('ci')}---\n${jwtMethod('other')}`);
    await ws.write('rules.yaml', bindingRule('deploy', 'ci'));
  });
  afterEach(async () => ws?.close());

  it('plan --target the rule plans its new auth method too, and says why', async () => {
    const r = await ws.run(planning({ target: ['NomadBindingRule/deploy'] }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('--target NomadBindingRule/deploy also plans NomadAuthMethod/ci, which it depends on.');
    const j = await ws.run(planning({ json: true, target: ['NomadBindingRule/deploy'] }));
    expect(actions(j.stdout)).toEqual(['create NomadAuthMethod/ci', 'create NomadBindingRule/deploy']);
  });

  it('apply --target creates both, leaves the untargeted method alone', async () => {
    ws.sandbox.log.clear();
    const a = await ws.run(applying({ target: ['NomadBindingRule/deploy'] }));
    expect(a.code, a.stdout + a.stderr).toBe(0);
    expect(ws.sandbox.log.writes('nomad').map((e) => `${e.method} ${e.path}`)).toEqual(['POST /v1/acl/auth-method/ci', 'POST /v1/acl/binding-rule']);
    const rest = await ws.run(planning({ json: true }));
    expect(actions(rest.stdout)).toEqual(['create NomadAuthMethod/other']);
  });
});
