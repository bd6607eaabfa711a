import type { ApplyIntent } from '../../plan/intent.js';
import type { Change } from '../../plan/types.js';
import type { ObjectView } from '../provider.js';
import { onlyStateChanged } from './outcome.js';
import type { NomadKindRemote } from './kind-remote.js';

/*
 * The intent of a Nomad create or update (plan/intent.ts): the request body, built from the manifest
 * at plan time, with any secret left empty and named; apply fills it from the manifest when it sends,
 * and sends nothing else.
 */

/** The change with its intent, for a create or an update; `remote` is the view's kind's remote half. */
export function withNomadIntent(remote: NomadKindRemote, view: ObjectView, change: Change): Change {
  if (change.action !== 'create' && change.action !== 'update') return change;
  const id = change.action === 'update' && remote.updatesById ? (view.live?.id ?? change.id) : undefined;
  let intent: ApplyIntent | undefined;
  if (change.action === 'update' && view.live && view.record && onlyStateChanged(change)) intent = { type: 'nomad.write.v1' };
  else {
    const o = view.desired?.object;
    // The kind's own body (its remote half builds it from the document).
    const body = o === undefined ? undefined : remote.body(o);
    if (body) intent = { type: 'nomad.write.v1', ...(id !== undefined ? { id } : {}), ...body };
  }
  return intent ? { ...change, intent } : change;
}
