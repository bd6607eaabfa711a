import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, createPlan } from '../../../src/engine/index.js';
import type { AnyDesired } from '../../../src/model/desired.js';
import { MemoryReporter } from '../../../src/model/events.js';
import { hasChanges } from '../../../src/plan/types.js';
import type { Provider, ProviderContext } from '../../../src/providers/provider.js';
import { createTfeProvider } from '../../../src/providers/tfe/provider.js';
import { Redactor } from '../../../src/secrets/redactor.js';
import { createSecretResolver } from '../../../src/secrets/resolver.js';
import { openStateStore } from '../../../src/state/state-store.js';
import { FAST, MemoryState, doc } from './harness.js';
import { startVariantServer, type VariantServer } from './variant-server.js';

/*
 * converge against a second stand-in that answers in the variants the reference allows and our
 * sandbox does not use (variant-server.ts lists them): the whole story — enable, create with the
 * first run followed through unusual states, a clean re-plan, a pin bump driven to applied.
 */

const SECRET = 'variant-secret-value-55';

const module = (pin: string) =>
  doc('NoCodeModule', 'vpc', { registryModule: 'acme/vpc/aws', versionPin: pin, enabled: true, variableOptions: [{ variableName: 'region', variableType: 'string', options: ['eu-west-1', 'us-east-1'] }] });
const workspace = () =>
  doc('NoCodeWorkspace', 'vx', {
    module: 'vpc',
    // The third project: only on the second page, reached through links.next alone.
    project: 'Platform',
    autoApply: false,
    variables: [
      { key: 'region', value: 'eu-west-1' },
      { key: 'db_password', value: { fromEnv: 'VX_SECRET' }, sensitive: true },
    ],
    upgrade: { confirm: 'auto' },
  });

describe('TFE provider against a variant server (reference-allowed answers our sandbox does not give)', () => {
  let srv: VariantServer;
  let provider: Provider;
  const reporter = new MemoryReporter();
  const state = new MemoryState();
  const ctx = (): ProviderContext => ({ reporter, secrets: createSecretResolver({ env: { VX_SECRET: SECRET }, redactor: new Redactor(), salt: state.doc.salt }) });
  const plan = (objects: AnyDesired[]) => createPlan({ desired: { objects, settings: { spec: {} } }, providers: [provider], state: state.doc, ctx: ctx() });
  const converge = async (objects: AnyDesired[]) => {
    const run = await plan(objects);
    const store = await openStateStore(state, { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    try {
      return { run, result: await applyPlan(run, { providers: [provider], store, ctx: ctx(), options: FAST }) };
    } finally {
      await store.close();
    }
  };

  beforeAll(async () => {
    srv = await startVariantServer();
    provider = createTfeProvider({ address: srv.url, token: srv.token, organization: 'acme', reporter });
  });
  afterAll(async () => {
    await provider?.close();
    await srv?.stop();
  });

  it('without /account/details the token kind is a warning, not a stop, and nothing is written', async () => {
    const diags = (await provider.preflight?.(ctx(), ['NoCodeModule', 'NoCodeWorkspace'])) ?? [];
    expect(diags.map((d) => [d.severity, d.code])).toEqual([['warning', 'tfe.token.kind-unknown']]);
    expect(srv.requests.filter((r) => !r.startsWith('GET'))).toEqual([]);
  });

  it('enables, creates the workspace and follows its first run through pre/post-plan states to applied', async () => {
    const { run, result } = await converge([module('1.0.0'), workspace()]);
    expect(run.plan.diagnostics).toEqual([]);
    expect(result.outcomes.map((o) => [o.name, o.status])).toEqual([
      ['vpc', 'succeeded'],
      ['vx', 'succeeded'],
    ]);
    // The 429 (numeric status, X-RateLimit-Reset only) was waited out and retried.
    expect(srv.requests.filter((r) => r.startsWith('GET /api/v2/organizations/acme/registry-modules')).length).toBeGreaterThanOrEqual(2);
    // Project on page 2 was reached by links.next.
    expect(srv.requests.some((r) => /projects\?.*page%5Bnumber%5D=2|projects\?.*page\[number\]=2/.test(r))).toBe(true);
    const ws = [...srv.workspaces.values()][0];
    expect(ws?.projectId).toBe('prj-Platform00000003');
    // current-run was null: the run came from the runs list, was confirmed at post_plan_completed.
    const first = [...srv.runs.values()][0];
    expect(first?.status).toBe('applied');
    expect(srv.requests.filter((r) => /^POST \/api\/v2\/runs\/[^/]+\/actions\/apply$/.test(r))).toHaveLength(1);
    const phases = reporter.events.filter((e) => e.code === 'tfe.run.phase' && e.data?.workspace === 'vx').map((e) => e.data?.phase);
    expect(phases).toEqual(expect.arrayContaining(['pre_plan_running', 'post_plan_completed', 'queuing_apply', 'post_apply_completed', 'applied']));
    expect(srv.missingContentType).toEqual([]);
    expect(JSON.stringify({ events: reporter.events, state: state.doc, outcomes: result.outcomes })).not.toContain(SECRET);
  });

  it('re-plans clean: null description, null pin handling, empty sensitive values compare equal', async () => {
    const run = await plan([module('1.0.0'), workspace()]);
    expect(run.plan.changes.filter((c) => c.action !== 'no-op').map((c) => [c.name, c.action, c.fields.map((f) => f.path)])).toEqual([]);
    expect(run.plan.drift).toEqual([]);
  });

  it('a pin bump upgrades through an id-less initiate and a non-JSON confirm, to applied', async () => {
    const { run, result } = await converge([module('1.1.0'), workspace()]);
    expect(run.plan.changes.find((c) => c.name === 'vx')).toMatchObject({ action: 'upgrade', upgrade: { from: '1.0.0', to: '1.1.0' } });
    expect(result.outcomes.map((o) => [o.name, o.status])).toEqual([
      ['vpc', 'succeeded'],
      ['vx', 'succeeded'],
    ]);
    expect([...srv.workspaces.values()][0]?.version).toBe('1.1.0');
    expect(srv.requests.filter((r) => /^POST .*\/upgrade\/run-/.test(r))).toHaveLength(1);
    expect(state.doc.records.find((r) => r.name === 'vx')?.inFlight).toBeUndefined();
    expect(srv.missingContentType).toEqual([]);
    expect(hasChanges((await plan([module('1.1.0'), workspace()])).plan)).toBe(false);
  });
});
