import type { JsonValue } from '../../model/json.js';
import type { ApplyIntent, NomadSecretField, NomadWriteIntent } from '../../plan/intent.js';
import type { Change } from '../../plan/types.js';
import type { ObjectView } from '../provider.js';
import { aclPolicyRequest, aclRoleRequest } from './acl-mapping.js';
import { authMethodRequest, bindingRuleRequest } from './mapping.js';
import { onlyStateChanged } from './outcome.js';
import { NOMAD_KINDS } from './kinds.js';
import { assertNever } from '../../model/action.js';

/*
 * The intent of a Nomad create or update (plan/intent.ts): the request body, built from the manifest
 * at plan time, with the auth method's secrets left empty and named; apply fills them from the
 * manifest when it sends, and sends nothing else.
 */

/** The wire request as plain JSON (every request type is built from JSON-safe manifest values). */
function json(body: object): { [key: string]: JsonValue } {
  return body as { [key: string]: JsonValue };
}

function bodyOf(view: ObjectView): Pick<NomadWriteIntent, 'body' | 'secrets'> | undefined {
  const o = view.desired?.object;
  if (o === undefined) return undefined;
  if (!NOMAD_KINDS.hasObject(o)) return NOMAD_KINDS.refuse(o.kind);
  switch (o.kind) {
    case 'NomadAuthMethod': {
      const secrets: NomadSecretField[] = [];
      if (o.spec.config.oidcClientSecret !== undefined) secrets.push('oidcClientSecret');
      if (o.spec.config.oidcClientAssertion?.privateKey?.pemKey !== undefined) secrets.push('pemKey');
      return { body: json(authMethodRequest(o.name, o.spec, {})), ...(secrets.length > 0 ? { secrets } : {}) };
    }
    case 'NomadBindingRule':
      return { body: json(bindingRuleRequest(o.spec)) };
    case 'NomadAclPolicy':
      return { body: json(aclPolicyRequest(o.name, o.spec)) };
    case 'NomadAclRole':
      return { body: json(aclRoleRequest(o.name, o.spec)) };
    default:
      return assertNever(o, 'Nomad kind');
  }
}

/** The change with its intent, for a create or an update. */
export function withNomadIntent(view: ObjectView, change: Change): Change {
  if (change.action !== 'create' && change.action !== 'update') return change;
  const id = change.action === 'update' && (view.kind === 'NomadBindingRule' || view.kind === 'NomadAclRole') ? (view.live?.id ?? change.id) : undefined;
  let intent: ApplyIntent | undefined;
  if (change.action === 'update' && view.live && view.record && onlyStateChanged(change)) intent = { type: 'nomad.write.v1' };
  else {
    const body = bodyOf(view);
    if (body) intent = { type: 'nomad.write.v1', ...(id !== undefined ? { id } : {}), ...body };
  }
  return intent ? { ...change, intent } : change;
}
