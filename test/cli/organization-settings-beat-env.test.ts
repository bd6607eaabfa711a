import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from '../e2e/harness.js';

/*
 * Regression: TFE_ORGANIZATION silently overrode the Settings document, so a CI runner
 * exporting it for another project sent a repository's plan to the wrong organization. The Settings
 * document is more specific and wins; a conflict is a warning naming both.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

describe('organization: Settings beats TFE_ORGANIZATION', () => {
  it('plans against the Settings organization and warns about the other one', async () => {
    ws = await openWorkspace({ copyExamples: true });
    const plan = await ws.cli(['plan', '.'], { TFE_ORGANIZATION: 'someone-else' });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain('TFE_ORGANIZATION is "someone-else" but the Settings document names organization "acme": using "acme"');
    expect(ws.sandbox.log.entries().some((e) => e.path.includes('/organizations/someone-else'))).toBe(false);
  });

  it('says nothing when they agree', async () => {
    ws = await openWorkspace({ copyExamples: true });
    const plan = await ws.cli(['plan', '.'], { TFE_ORGANIZATION: 'acme' });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).not.toContain('TFE_ORGANIZATION');
  });
});
