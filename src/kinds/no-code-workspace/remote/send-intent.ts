import { ConvergeError } from '../../../diagnostics/errors.js';
import type { DesiredObject } from '../../../model/desired.js';
import { isSecretRef } from '../../../model/secret-ref.js';
import type { TfeVariable, TfeVariableOp, TfeWorkspaceIntent } from '../intent.js';
import type { ApplyContext, PlannedChange } from '../../../providers/provider.js';
import type { CallContext, TfeClient, VarBody } from '../../../providers/tfe/client.js';
import { POINTERS, type WorkspaceCreateBody } from './endpoints.js';
import { varCategory, varText } from './mapping.js';
import { type Env, appliedFields, moduleIdFor, saveRecord, str } from './env.js';
import { secretVersions } from './variables.js';

/*
 * Sends a NoCodeWorkspace change's intent (intent.ts) as the plan decided it: the PATCH body, the
 * variable requests with the ids the plan read, the create body. Nothing here diffs or looks up;
 * the only thing resolved now is a secret's value, from the manifest, at the moment it is sent.
 */

type WorkspaceDesired = DesiredObject<'NoCodeWorkspace'>;

/** What a workspace update or upgrade sent before any run. */
export interface WorkspaceWritten {
  settings: boolean;
  variableWrites: number;
}

/** The intent of a workspace change; a change planned without one (a bug) fails instead of guessing. */
export function workspaceIntentOf(p: PlannedChange): TfeWorkspaceIntent {
  const intent = p.change.intent;
  if (intent?.type !== 'tfe.no-code-workspace.v1') {
    throw new ConvergeError('tfe.intent.missing', `NoCodeWorkspace/${p.change.name}: the planned ${p.change.action} carries nothing to send`, {
      source: 'internal',
      hint: 'make the plan again with this version of converge',
    });
  }
  return intent;
}

/** The value to send: a secret is resolved from the manifest variable of the same category and key now. */
async function valueOf(ctx: ApplyContext, d: WorkspaceDesired, v: TfeVariable): Promise<string> {
  if ('text' in v.value) return v.value.text;
  const spec = (d.spec.variables ?? []).find((x) => x.key === v.key && varCategory(x) === v.category);
  if (spec?.value === undefined) {
    throw new ConvergeError('tfe.intent.secret-missing', `variable ${v.key} (${v.category}) of workspace ${d.name} has no value in the manifest any more`, {
      source: 'user',
      hint: 'make the plan again: the manifest changed since it was made',
    });
  }
  // Only a secret goes through the resolver, which registers its value with the redactor.
  return typeof spec.value === 'string' || isSecretRef(spec.value) ? ctx.secrets.resolve(spec.value, d.baseDir) : varText(spec.value);
}

export async function varBody(ctx: ApplyContext, d: WorkspaceDesired, v: TfeVariable): Promise<VarBody> {
  return { key: v.key, value: await valueOf(ctx, d, v), description: v.description, category: v.category, hcl: v.hcl, sensitive: v.sensitive };
}

function varCall(d: WorkspaceDesired, key: string, category: string): CallContext {
  const index = (d.spec.variables ?? []).findIndex((x) => x.key === key && varCategory(x) === category);
  return { what: `variable ${key} of workspace ${d.name}`, desired: d, pointers: { ...POINTERS, ...(index >= 0 ? { '/data': `/spec/variables/${index}` } : {}) } };
}

/** The create body with every variable's value; secrets resolved now. */
export async function createBody(ctx: ApplyContext, d: WorkspaceDesired, intent: NonNullable<TfeWorkspaceIntent['create']>): Promise<WorkspaceCreateBody> {
  const { module: _module, moduleId: _moduleId, variables, ...settings } = intent;
  const vars: VarBody[] = [];
  for (const v of variables) vars.push(await varBody(ctx, d, v));
  return { ...settings, vars };
}

/** PATCH /workspaces/:id with the planned settings; false when the plan changes none. */
async function sendSettings(client: TfeClient, d: WorkspaceDesired, intent: TfeWorkspaceIntent, workspaceId: string): Promise<boolean> {
  if (!intent.settings) return false;
  await client.workspaces.updateWorkspace(workspaceId, intent.settings, { what: `workspace ${d.name}`, desired: d, pointers: POINTERS });
  return true;
}

async function sendVariable(client: TfeClient, ctx: ApplyContext, d: WorkspaceDesired, workspaceId: string, op: TfeVariableOp): Promise<number> {
  const key = op.op === 'delete' ? op.key : op.variable.key;
  const call = varCall(d, key, op.op === 'delete' ? op.category : op.variable.category);
  switch (op.op) {
    case 'create':
      await client.variables.createVar(workspaceId, await varBody(ctx, d, op.variable), call);
      return 1;
    case 'update':
      await client.variables.updateVar(workspaceId, op.id, await varBody(ctx, d, op.variable), call);
      return 1;
    case 'replace':
      await client.variables.deleteVar(workspaceId, op.id, call);
      await client.variables.createVar(workspaceId, await varBody(ctx, d, op.variable), call);
      return 2;
    case 'delete':
      await client.variables.deleteVar(workspaceId, op.id, call);
      return 1;
  }
}

/** The planned variable requests, in order; returns how many writes were made. */
async function sendVariables(client: TfeClient, ctx: ApplyContext, d: WorkspaceDesired, intent: TfeWorkspaceIntent, workspaceId: string): Promise<number> {
  let writes = 0;
  for (const op of intent.variables ?? []) writes += await sendVariable(client, ctx, d, workspaceId, op);
  return writes;
}

/**
 * An update's or upgrade's intent sent to the live workspace: settings, then variables, then the record
 * (with the secret version ids the writes left), so a run that follows plans with them and a killed
 * apply keeps what was written.
 */
export async function sendWorkspaceIntent(env: Env, p: PlannedChange, d: WorkspaceDesired, workspaceId: string): Promise<WorkspaceWritten> {
  const intent = workspaceIntentOf(p);
  const settings = await sendSettings(env.session.client, d, intent, workspaceId);
  const variableWrites = await sendVariables(env.session.client, env.ctx, d, intent, workspaceId);
  await saveRecord(env, p, workspaceId, appliedFields(p, str(p.view.live?.fields.moduleVersion)), {
    workspaceId,
    moduleId: moduleIdFor(env, intent.moduleId, d.spec.module) ?? null,
    ...(await secretVersions(env, p, d, workspaceId, variableWrites > 0)),
  });
  return { settings, variableWrites };
}
