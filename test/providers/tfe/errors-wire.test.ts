import { describe, expect, it } from 'vitest';
import type { AnyDesired } from '../../../src/model/desired.js';
import { manifestPointer, tfeError } from '../../../src/providers/tfe/errors.js';
import { POINTERS as MODULE_POINTERS } from '../../../src/kinds/no-code-module/remote/endpoints.js';
import { POINTERS as WORKSPACE_POINTERS } from '../../../src/kinds/no-code-workspace/remote/endpoints.js';
import { parseRegistryModule } from '../../../src/kinds/no-code-module/remote/wire.js';
import { parseAccount, parseErrors, parseListDocument, parseWorkspace, parseWorkspaceUpgrade } from '../../../src/providers/tfe/wire.js';
import { tokenKindOf } from '../../../src/providers/tfe/provider.js';
import { classifyRun, pollDelay } from '../../../src/providers/tfe/runs.js';
import { rollout, type StopReason } from '../../../src/providers/tfe/rollout.js';

const range = (line: number) => ({ file: 'ws.yaml', start: { line, col: 1 }, end: { line, col: 10 } });
const workspace = {
  kind: 'NoCodeWorkspace',
  name: 'vpc-dev',
  protect: false,
  spec: { module: 'vpc' },
  range: range(1),
  positions: { '/name': range(2), '/spec/agentPoolId': range(7), '/spec/variables/1': range(12), '/spec/variables/1/value': range(13) },
  baseDir: '/m',
} as unknown as AnyDesired;

describe('errors', () => {
  it('maps request pointers back to manifest pointers', () => {
    expect(manifestPointer('/data/attributes/agent-pool-id', WORKSPACE_POINTERS)).toBe('/spec/agentPoolId');
    expect(manifestPointer('/data/attributes/name', WORKSPACE_POINTERS)).toBe('/name');
    expect(manifestPointer('/data/relationships/vars/data/1/attributes/value', WORKSPACE_POINTERS)).toBe('/spec/variables/1/value');
    expect(manifestPointer('/data/relationships/variable-options/data/0/attributes/variable-name', MODULE_POINTERS)).toBe('/spec/variableOptions/0/variableName');
    expect(manifestPointer('/data/attributes/key', { ...WORKSPACE_POINTERS, '/data': '/spec/variables/1' })).toBe('/spec/variables/1/key');
  });

  it('a 422 with source.pointer carries the manifest range', () => {
    const text = JSON.stringify({ errors: [{ status: '422', title: 'invalid attribute', detail: 'Agent pool not found', source: { pointer: '/data/attributes/agent-pool-id' } }] });
    const e = tfeError({ status: 422, headers: {}, text }, { what: 'workspace vpc-dev', organization: 'acme', desired: workspace, pointers: WORKSPACE_POINTERS });
    expect(e.code).toBe('tfe.invalid');
    expect(e.range?.start.line).toBe(7);
    expect(e.message).toContain('Agent pool not found');
    const named = tfeError(
      { status: 422, headers: {}, text: JSON.stringify({ errors: [{ status: '422', detail: 'Name has already been taken', source: { pointer: '/data/attributes/name' } }] }) },
      { what: 'workspace vpc-dev', organization: 'acme', desired: workspace, pointers: WORKSPACE_POINTERS },
    );
    expect(named.range?.start.line).toBe(2);
    // A pointer deeper than any known node falls back to the nearest ancestor, then the document.
    const deep = tfeError(
      { status: 422, headers: {}, text: JSON.stringify({ errors: [{ detail: 'bad', source: { pointer: '/data/relationships/vars/data/1/attributes/hcl' } }] }) },
      { what: 'workspace vpc-dev', organization: 'acme', desired: workspace, pointers: WORKSPACE_POINTERS },
    );
    expect(deep.range?.start.line).toBe(12);
  });

  it('404 says "not found or not authorized" naming the object and the organization; 401 is a bad token', () => {
    const e = tfeError({ status: 404, headers: {}, text: '{"errors":[{"status":"404","title":"not found"}]}' }, { what: 'workspace vpc-dev', organization: 'acme' });
    expect(e.code).toBe('tfe.not-found');
    expect(e.message).toMatch(/workspace vpc-dev not found in organization acme, or the token is not authorized/);
    expect(tfeError({ status: 401, headers: {}, text: '' }, { what: 'x', organization: 'acme' }).code).toBe('tfe.token.invalid');
    expect(tfeError({ status: 503, headers: {}, text: '' }, { what: 'x', organization: 'acme' }).retryable).toBe(true);
  });

  it('a 404 on an endpoint that refuses organization tokens names them as a possible cause', () => {
    const res = { status: 404, headers: {}, text: '{"errors":[{"status":"404","title":"not found"}]}' };
    const e = tfeError(res, { what: 'no-code module of acme/vpc/aws', organization: 'acme', refusesOrganizationTokens: true });
    expect(e.message).toMatch(/no-code module of acme\/vpc\/aws not found in organization acme, or the token is not authorized/);
    expect(e.hint).toMatch(/organization tokens get this 404/);
  });
  it('parses error bodies with string or number status, and plain string errors', () => {
    expect(parseErrors('{"errors":[{"detail":"slow down","status":429,"title":"Too many requests"}]}')[0]?.status).toBe('429');
    expect(parseErrors('{"errors":["boom"]}')[0]?.detail).toBe('boom');
    expect(parseErrors('not json')).toEqual([]);
  });
});

describe('wire', () => {
  it('pagination from meta, else from links.next', () => {
    expect(parseListDocument({ data: [], meta: { pagination: { 'next-page': 3, 'total-pages': 4 } } }, 'x')).toMatchObject({ nextPage: 3, totalPages: 4 });
    expect(parseListDocument({ data: [], links: { next: 'https://h/api/v2/x?page%5Bnumber%5D=2&page%5Bsize%5D=100' } }, 'x').nextPage).toBe(2);
    expect(parseListDocument({ data: [], meta: { pagination: { 'next-page': null } } }, 'x').nextPage).toBeNull();
    expect(() => parseListDocument({ data: {} }, 'list of x')).toThrow(/list of x/);
  });
  it('pagination tolerates numeric strings, a missing next-page (current < total), and neither meta nor links', () => {
    expect(parseListDocument({ data: [], meta: { pagination: { 'next-page': '2', 'total-pages': '3' } } }, 'x')).toMatchObject({ nextPage: 2, totalPages: 3 });
    expect(parseListDocument({ data: [], meta: { pagination: { 'current-page': 1, 'total-pages': 2 } } }, 'x').nextPage).toBe(2);
    expect(parseListDocument({ data: [], meta: { pagination: { 'current-page': 2, 'total-pages': 2 } } }, 'x').nextPage).toBeNull();
    expect(parseListDocument({ data: [] }, 'x')).toMatchObject({ nextPage: null, totalPages: null });
    expect(parseListDocument({ data: [], links: { next: null } }, 'x').nextPage).toBeNull();
    // The size the service really used, so later pages are asked at that size.
    expect(parseListDocument({ data: [], meta: { pagination: { 'page-size': 20 } } }, 'x').pageSize).toBe(20);
    expect(parseListDocument({ data: [], links: { next: 'https://h/x?page%5Bnumber%5D=2&page%5Bsize%5D=50' } }, 'x')).toMatchObject({ pageSize: 50, nextPage: 2 });
  });
  it('workspaces: description null, no-code attributes absent on ordinary workspaces, current-run null', () => {
    const w = parseWorkspace(
      { id: 'ws-1', type: 'workspaces', attributes: { name: 'a', description: null, 'auto-apply': false }, relationships: { 'current-run': { data: null } } },
      'x',
    );
    expect(w).toMatchObject({ description: null, sourceModuleId: null, noCodeUpgradeAvailable: null, currentRunId: null, agentPoolId: null });
  });
  it('registry module: a version without a status is usable; singular type accepted', () => {
    const m = parseRegistryModule(
      { id: 'mod-1', type: 'registry-module', attributes: { name: 'vpc', namespace: 'acme', provider: 'aws', 'version-statuses': [{ version: '1.0.0' }, { version: '1.1.0', status: 'pending' }] }, relationships: {} },
      'x',
    );
    expect(m.versions).toEqual([
      { version: '1.0.0', status: 'ok' },
      { version: '1.1.0', status: 'pending' },
    ]);
    expect(m.registryName).toBe('private');
  });
  it('token kind from account details: the relationship, else an api-org- service user; otherwise unknown', () => {
    const acct = (rel: unknown, attrs: Record<string, unknown> = {}) =>
      tokenKindOf(parseAccount({ id: 'user-1', type: 'users', attributes: attrs, relationships: rel ? { 'authenticated-resource': { data: rel } } : {} }));
    expect(acct({ id: 'acme', type: 'organizations' })).toBe('organization');
    expect(acct({ id: 'team-1', type: 'teams' })).toBe('team');
    expect(acct(null, { username: 'api-org-acme-x1', 'is-service-account': true })).toBe('organization');
    expect(acct(null, { username: 'alice', 'is-service-account': false })).toBe('user');
    expect(acct(null, {})).toBe('unknown');
  });
  it('an upgrade answer with only a message has no run', () => {
    expect(parseWorkspaceUpgrade({ data: { type: 'workspace-upgrade', attributes: { message: 'No upgrade available' } } }, 'x')).toEqual({
      runId: null,
      status: null,
      message: 'No upgrade available',
    });
  });
});

describe('runs', () => {
  it('classifies every run state of the reference', () => {
    expect(classifyRun('applied')).toBe('applied');
    expect(classifyRun('planned_and_finished')).toBe('no-changes');
    for (const s of ['errored', 'canceled', 'force_canceled', 'discarded', 'policy_soft_failed']) expect(classifyRun(s)).toBe('failed');
    // A person must act in HCP Terraform; the run is neither final nor confirmable (docs/reference/hcp-terraform-api.md §3).
    for (const s of ['policy_override', 'tf_policy_override', 'post_plan_awaiting_decision', 'pre_plan_awaiting_decision']) expect(classifyRun(s)).toBe('needs-decision');
    for (const s of ['planned', 'cost_estimated', 'policy_checked']) expect(classifyRun(s)).toBe('confirmable');
    // The runs API's own flag wins over the state name.
    expect(classifyRun('planned', false)).toBe('running');
    expect(classifyRun('post_plan_completed', true)).toBe('confirmable');
    for (const s of ['pending', 'fetching', 'planning', 'cost_estimating', 'confirmed', 'apply_queued', 'applying', 'post_apply_running']) expect(classifyRun(s)).toBe('running');
    // After post-plan run tasks the run may wait there for a confirmation (RUN).
    expect(classifyRun('post_plan_completed')).toBe('confirmable');
    expect(classifyRun('planned_and_saved')).toBe('failed');
    // Every state the reference lists classifies as a known class.
    const all =
      'pending fetching fetching_completed pre_plan_running pre_plan_completed queuing plan_queued planning planned cost_estimating cost_estimated policy_checking policy_override policy_soft_failed policy_checked confirmed post_plan_running post_plan_completed planned_and_finished planned_and_saved apply_queued applying applied discarded errored canceled force_canceled pre_apply_running pre_apply_completed post_apply_running post_apply_completed queuing_apply post_plan_awaiting_decision pre_plan_awaiting_decision tf_policy_checked tf_policy_override';
    for (const s of all.split(' ')) expect(['running', 'confirmable', 'applied', 'no-changes', 'needs-decision', 'failed']).toContain(classifyRun(s));
    // A state nobody listed is not assumed to move by itself: followed for a bounded wait only (runs.ts).
    expect(classifyRun('some_state_added_next_year')).toBe('unknown');
  });
  it('polls back off up to 10× the interval', () => {
    const d = [0, 1, 2, 3, 10, 20].map((n) => pollDelay({ pollIntervalMs: 100 }, n));
    expect(d[0]).toBe(100);
    expect(d[1]).toBe(150);
    expect(d.at(-1)).toBe(1000);
  });
});

describe('rollout', () => {
  it('runs one canary first, then the rest; stops starting new ones after a failure', async () => {
    const started: string[] = [];
    const run = async (n: string) => {
      started.push(n);
      await new Promise((r) => setTimeout(r, 1));
      return { n, ok: n !== 'b' };
    };
    const skip = (n: string, reason: StopReason) => ({ n, ok: true, reason });
    const r = await rollout(['a', 'b', 'c', 'd'], { concurrency: 1, run, isFailure: (x) => !x.ok, skip, nameOf: (n) => n });
    expect(started).toEqual(['a', 'b']);
    expect(r.map((x) => x.n)).toEqual(['a', 'b', 'c', 'd']);
    expect((r[2] as { reason?: StopReason }).reason).toEqual({ code: 'upgrade-failed', workspace: 'b' });
    const canary = await rollout(['a', 'b'], { concurrency: 4, run, isFailure: () => true, skip, nameOf: (n) => n });
    expect((canary[1] as { reason?: StopReason }).reason).toEqual({ code: 'canary-failed', canary: 'a' });
  });

  it('keeps a group to maxConcurrent at once and stops it after maxFailures, reporting done/running/waiting/failed', async () => {
    let running = 0;
    let peak = 0;
    const run = async (n: string) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 2));
      running -= 1;
      return { n, ok: !['c', 'd'].includes(n) };
    };
    const seen: { done: number; running: number; waiting: number; failed: number }[] = [];
    const r = await rollout(['a', 'b', 'c', 'd', 'e', 'f', 'g'], {
      concurrency: 10,
      run,
      isFailure: (x) => !x.ok,
      skip: (n, reason) => ({ n, ok: true, reason }),
      nameOf: (n) => n,
      groupOf: () => ({ name: 'mod', limits: { maxConcurrent: 1, maxFailures: 2 } }),
      onProgress: (p) => seen.push(p),
    });
    expect(peak).toBe(1);
    expect(r.map((x) => ('reason' in x ? 'skipped' : x.ok ? 'ok' : 'failed'))).toEqual(['ok', 'ok', 'failed', 'failed', 'skipped', 'skipped', 'skipped']);
    expect((r[4] as { reason?: StopReason }).reason).toEqual({ code: 'max-failures', module: 'mod', maxFailures: 2, failed: ['c', 'd'] });
    expect(seen.at(-1)).toEqual({ done: 4, running: 0, waiting: 0, failed: 2 });
  });
});
