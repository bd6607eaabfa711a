import type { DesiredObject } from '../../../model/desired.js';
import { addressKey } from '../../../model/kinds.js';
import type { JsonValue } from '../../../model/json.js';
import type { StateRecord } from '../../../state/types.js';
import type { ApplyBatch, ApplyContext, PlannedChange } from '../../../providers/provider.js';
import type { TfeSession } from '../../../providers/tfe/session.js';

/*
 * What every NoCodeWorkspace apply step shares: the session, the apply context, and the record it saves.
 */

export type WorkspaceDesired = DesiredObject<'NoCodeWorkspace'>;

export function desiredOf(p: PlannedChange): WorkspaceDesired | undefined {
  const o = p.view.desired?.object;
  return o?.kind === 'NoCodeWorkspace' ? o : undefined;
}

export function str(v: JsonValue | undefined): string | null {
  return typeof v === 'string' ? v : null;
}

export interface Env {
  session: TfeSession;
  ctx: ApplyContext;
  all: ApplyBatch['all'];
}

export function saveRecord(env: Env, p: PlannedChange, id: string, applied: Record<string, JsonValue>, extra: Record<string, JsonValue>): Promise<void> {
  const previous = env.ctx.record(p.change);
  const d = desiredOf(p);
  const rec: StateRecord = {
    kind: 'NoCodeWorkspace',
    name: p.change.name,
    id,
    applied,
    secretDigests: { ...(p.view.desired?.secrets ?? {}) },
    // Earlier provider data (e.g. secret version ids) stays unless this save replaces it.
    extra: { ...(previous?.extra ?? {}), ...extra },
    protect: d?.protect ?? previous?.protect ?? false,
    updatedAt: new Date().toISOString(),
    // A save never drops a run still in flight: only setInFlight does.
    ...(previous?.inFlight ? { inFlight: previous.inFlight } : {}),
  };
  return env.ctx.save(rec);
}

export function appliedFields(p: PlannedChange, moduleVersion: string | null): Record<string, JsonValue> {
  return { ...(p.view.desired?.fields ?? {}), moduleVersion };
}

/**
 * The id of the NoCodeModule a workspace runs: the one the plan carried (intent.ts). Looked up now only
 * where the plan could not know it (null: the module is created earlier in this apply, and its create
 * recorded the id) or did not say (undefined: a plan made before update and upgrade intents carried it).
 */
export function moduleIdFor(env: Env, planned: string | null | undefined, module: string): string | undefined {
  if (planned) return planned;
  const address = { kind: 'NoCodeModule' as const, name: module };
  return env.ctx.record(address)?.id ?? env.all.get(addressKey(address))?.live?.id;
}
