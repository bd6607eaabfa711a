import type { DesiredObject } from '../../../model/desired.js';
import type { JsonValue } from '../../../model/json.js';
import type { Change } from '../../../plan/types.js';
import type { ObjectView } from '../../../providers/provider.js';
import type { TfeModuleIntent } from '../intent.js';
import { moduleOptionsBody } from './mapping.js';

/*
 * The intent of a NoCodeModule change (plan/intent.ts): built at plan time from what load read (the registry
 * module id), so apply sends it without looking anything up again. Pure.
 */

type ModuleDesired = DesiredObject<'NoCodeModule'>;

/** Fields that live only in converge (state), never sent: a module's name is converge's own (matched live by its registry module). */
const LOCAL_MODULE_FIELDS = new Set(['protect', 'name']);

function str(v: JsonValue | undefined): string | null {
  return typeof v === 'string' ? v : null;
}

export function moduleIntent(view: ObjectView, change: Change): TfeModuleIntent | undefined {
  const d = view.desired?.object as ModuleDesired | undefined;
  if (!d || (change.action !== 'create' && change.action !== 'update')) return undefined;
  const registryModuleId = str(view.live?.extra.registryModuleId) ?? view.desired?.ids?.registryModuleId;
  const versionPin = str(view.desired?.fields.versionPin);
  // Unresolved: the plan carries an error for it (load.ts), and apply refuses a plan with errors.
  if (registryModuleId === undefined || versionPin === null) return undefined;
  const sends = change.action === 'create' || change.fields.some((f) => !LOCAL_MODULE_FIELDS.has(f.path));
  if (!sends) return { type: 'tfe.no-code-module.v1' };
  return { type: 'tfe.no-code-module.v1', body: { registryModuleId, versionPin, enabled: d.spec.enabled ?? true, variableOptions: moduleOptionsBody(d.spec) } };
}
