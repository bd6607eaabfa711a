import { putString, type Fields } from '../../../providers/nomad/mapping.js';
import type { NomadAclRoleSpec } from '../spec.js';
import type { WireAclRole, WireAclRoleRequest } from './wire.js';

/*
 * ACL roles, wire ↔ manifest: both sides of the diff go through `aclRoleFields`, with manifest-style
 * paths (`description`, `policies`). Empty strings are absent, as Nomad stores them (Go zero values).
 */

export function aclRoleFields(spec: NomadAclRoleSpec): Fields {
  // A role grants the union of its policies, so their order means nothing; Nomad drops repeats
  // (nomad/acl_endpoint.go UpsertRoles). Compared as a sorted set.
  const out: Fields = { policies: [...new Set(spec.policies)].sort() };
  putString(out, 'description', spec.description);
  return out;
}

export function aclRoleSpecFromWire(r: WireAclRole): NomadAclRoleSpec {
  return { ...(r.Description !== '' ? { description: r.Description } : {}), policies: r.Policies.map((p) => p.Name) };
}

export function liveAclRoleFields(r: WireAclRole): Fields {
  return aclRoleFields(aclRoleSpecFromWire(r));
}

/** Every field, always (an update replaces the role). Policies in the manifest's order. */
export function aclRoleRequest(name: string, spec: NomadAclRoleSpec): WireAclRoleRequest {
  return { Name: name, Description: spec.description ?? '', Policies: [...new Set(spec.policies)].map((n) => ({ Name: n })) };
}
