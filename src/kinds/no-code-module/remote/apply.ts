import { ConvergeError } from '../../../diagnostics/errors.js';
import type { DesiredObject } from '../../../model/desired.js';
import { addressKey } from '../../../model/kinds.js';
import type { JsonValue } from '../../../model/json.js';
import type { OutcomeDetail } from '../../../plan/codes.js';
import type { StateRecord } from '../../../state/types.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, LiveView, ObjectView, PlannedChange } from '../../../providers/provider.js';
import { importRecordBase } from '../../../providers/tfe/export-record.js';
import { failed, outcome } from '../../../providers/tfe/outcome.js';
import type { TfeSession } from '../../../providers/tfe/session.js';
import { NoCodeModulesClient } from './endpoints.js';
import { desiredModuleFields } from './mapping.js';

/*
 * NoCodeModule writes and deletes. One no-code module per registry module (docs/reference/hcp-terraform-api.md
 * §1.5): load found the existing one through the registry module, so a create here means none
 * exists, and an adopted one is PATCHed, never created twice.
 */

function record(p: PlannedChange, id: string, applied: Record<string, JsonValue>, extra: Record<string, JsonValue>, ctx: ApplyContext): StateRecord {
  const previous = ctx.record(p.change);
  return {
    kind: 'NoCodeModule',
    name: p.change.name,
    id,
    applied,
    secretDigests: {},
    extra,
    protect: p.view.desired?.object.protect ?? previous?.protect ?? false,
    updatedAt: new Date().toISOString(),
    ...(previous?.inFlight ? { inFlight: previous.inFlight } : {}),
  };
}

async function writeModule(p: PlannedChange, session: TfeSession, ctx: ApplyContext): Promise<ApplyOutcome> {
  const d = p.view.desired?.object as DesiredObject<'NoCodeModule'> | undefined;
  if (!d) return outcome(p, 'failed', { code: 'internal-no-manifest' });
  const fields = p.view.desired?.fields ?? desiredModuleFields(d.spec, null);
  // The plan resolved the registry module and version (intent.ts); without them it carried an error.
  const intent = p.change.intent?.type === 'tfe.no-code-module.v1' ? p.change.intent : undefined;
  if (intent === undefined || (p.change.action === 'create' && !intent.body)) {
    const error = new ConvergeError('tfe.module.unresolved', `cannot write NoCodeModule/${d.name}: its registry module or version is unknown`, {
      source: 'user',
      range: d.range,
      hint: 'make the plan again: it reports why the registry module or version cannot be used',
    });
    return outcome(p, 'failed', error.message, { error });
  }
  const body = intent.body;
  const call = { what: `no-code module of ${d.spec.registryModule}`, desired: d };
  const noCodeModules = new NoCodeModulesClient(session.client);
  const live = p.view.live;
  if (p.change.action === 'create' && body) {
    const read = await noCodeModules.enableNoCodeModule(body, call);
    // What was applied is the desired fields the service accepted (its write responses do not
    // include the variable options, so they cannot be read back from them).
    await ctx.save(record(p, read.module.id, fields, { registryModuleId: body.registryModuleId, registryModule: d.spec.registryModule }, ctx));
    return outcome(p, 'succeeded', { code: 'module-enabled', registryModule: d.spec.registryModule, version: body.versionPin, id: read.module.id });
  }
  if (!live) return outcome(p, 'failed', { code: 'internal-no-live' });
  let message: OutcomeDetail = { code: 'recorded' };
  if (body) {
    // The whole desired set, no ids, registry module always included (docs/reference/hcp-terraform-api.md §1.2).
    await noCodeModules.updateNoCodeModule(live.id, body, call);
    message = { code: 'done-id', id: live.id, paths: p.change.fields.map((f) => f.path) };
  }
  const registryModuleId = body?.registryModuleId ?? (typeof live.extra.registryModuleId === 'string' ? live.extra.registryModuleId : null);
  await ctx.save(record(p, live.id, fields, { registryModuleId, registryModule: d.spec.registryModule }, ctx));
  return outcome(p, 'succeeded', message);
}

function moduleOfWorkspace(v: { desired?: { object: { spec: unknown } }; live?: { fields: Record<string, JsonValue> }; record?: StateRecord }): string | undefined {
  const spec = v.desired?.object.spec as { module?: string } | undefined;
  const m = spec?.module ?? v.live?.fields.module ?? v.record?.applied.module;
  return typeof m === 'string' ? m : undefined;
}

async function deleteModule(p: PlannedChange, batch: ApplyBatch, session: TfeSession, ctx: ApplyContext): Promise<ApplyOutcome> {
  // Refuse while workspaces converge owns still use it (workspace deletes ran first, in the
  // engine's reverse KINDS order, and dropped their records).
  const users = [...batch.all.values()]
    .filter((v) => v.kind === 'NoCodeWorkspace' && moduleOfWorkspace(v) === p.change.name && (v.desired !== undefined || ctx.record(v) !== undefined))
    .map((v) => v.name)
    .sort();
  if (users.length > 0) {
    const error = new ConvergeError(
      'tfe.module.in-use',
      `NoCodeModule/${p.change.name} is still used by ${users.map((u) => `NoCodeWorkspace/${u}`).join(', ')}: not deleted`,
      { source: 'user', hint: 'remove or move those workspaces first (or set their deletion policy), then apply again' },
    );
    return outcome(p, 'failed', error.message, { error });
  }
  const id = p.view.live?.id ?? p.view.record?.id;
  if (id === undefined) {
    await ctx.forget(p.change);
    return outcome(p, 'succeeded', { code: 'already-gone' });
  }
  const existed = await new NoCodeModulesClient(session.client).deleteNoCodeModule(id, { what: `no-code module ${id} (${addressKey(p.change)})` });
  await ctx.forget(p.change);
  return outcome(p, 'succeeded', existed ? { code: 'done-id', id } : { code: 'already-gone', id, notFound: true });
}

export async function applyModules(batch: ApplyBatch, session: TfeSession, ctx: ApplyContext): Promise<ApplyOutcome[]> {
  const out: ApplyOutcome[] = [];
  // Few modules per organization: one at a time keeps the request log readable and the order stable.
  for (const p of batch.changes) {
    const run = async (): Promise<ApplyOutcome> => {
      try {
        return batch.phase === 'delete' ? await deleteModule(p, batch, session, ctx) : await writeModule(p, session, ctx);
      } catch (e) {
        return failed(p, e);
      }
    };
    out.push(await (ctx.track ? ctx.track(p, run) : run()));
  }
  return out;
}

/**
 * The record `converge import` (or an adoption) writes for a module found live: the shape `record` above saves,
 * with `applied` taken from what the service holds now.
 */
export function moduleImportRecord(view: ObjectView & { live: LiveView }, _all: ReadonlyMap<string, ObjectView>, now: Date): StateRecord {
  const { live } = view;
  return {
    ...importRecordBase(view, now),
    applied: { ...live.fields },
    secretDigests: {},
    extra: { registryModuleId: live.extra.registryModuleId ?? null, registryModule: live.extra.registryModule ?? null },
  };
}
