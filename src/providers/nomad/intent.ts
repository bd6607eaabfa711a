import type { DesiredObject } from '../../model/desired.js';
import type { ApplyIntent } from '../../plan/intent.js';
import type { Change } from '../../plan/types.js';
import type { ObjectView } from '../provider.js';
import { onlyStateChanged } from './outcome.js';
import { NOMAD_KINDS } from './kinds.js';
import type { NomadBody, NomadKind } from './kind-remote.js';
import { remoteOf } from './remotes.js';

/*
 * The intent of a Nomad create or update (plan/intent.ts): the request body, built from the manifest
 * at plan time, with the auth method's secrets left empty and named; apply fills them from the
 * manifest when it sends, and sends nothing else.
 */

function bodyOf(view: ObjectView): NomadBody | undefined {
  const o = view.desired?.object;
  if (o === undefined) return undefined;
  if (!NOMAD_KINDS.hasObject(o)) return NOMAD_KINDS.refuse(o.kind);
  return bodyFor(o);
}

/** The kind's own body (its remote half builds it from the document). */
function bodyFor<K extends NomadKind>(o: DesiredObject<K>): NomadBody {
  return remoteOf<K>(o.kind).body(o);
}

/** The change with its intent, for a create or an update. */
export function withNomadIntent(view: ObjectView, change: Change): Change {
  if (change.action !== 'create' && change.action !== 'update') return change;
  const id = change.action === 'update' && NOMAD_KINDS.has(view.kind) && remoteOf(view.kind).updatesById ? (view.live?.id ?? change.id) : undefined;
  let intent: ApplyIntent | undefined;
  if (change.action === 'update' && view.live && view.record && onlyStateChanged(change)) intent = { type: 'nomad.write.v1' };
  else {
    const body = bodyOf(view);
    if (body) intent = { type: 'nomad.write.v1', ...(id !== undefined ? { id } : {}), ...body };
  }
  return intent ? { ...change, intent } : change;
}
