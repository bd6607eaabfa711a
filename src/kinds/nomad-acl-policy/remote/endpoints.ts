import { ConvergeError } from '../../../diagnostics/errors.js';
import type { SourceRange } from '../../../diagnostics/types.js';
import type { CallOptions, NomadClient } from '../../../providers/nomad/client.js';
import { deleteSettled, readList, readOrAbsent, writeOk } from '../../../providers/nomad/requests.js';
import { parseAclPolicy, parseAclPolicyStubs, type WireAclPolicy, type WireAclPolicyRequest, type WireAclPolicyStub } from './wire.js';

/*
 * The ACL policy endpoints, sent over the provider's connection (NomadClient.send: token, region, errors).
 * Facts: src/sandbox/nomad/SPEC.md "ACL policies", from command/agent/acl_endpoint.go and nomad/acl_endpoint.go.
 */

const policyPath = (name: string) => `/v1/acl/policy/${encodeURIComponent(name)}`;

/**
 * `/v1/acl/policy/self` is the caller's own policy list, so Nomad's HTTP API cannot read, write or
 * delete a policy named `self` (command/agent/acl_endpoint.go ACLPolicySpecificRequest).
 */
export function refuseSelfPolicy(name: string, range?: SourceRange): void {
  if (name !== 'self') return;
  throw new ConvergeError('nomad.policy-name-reserved', 'an ACL policy named "self" cannot be managed through the Nomad HTTP API', {
    source: 'user',
    ...(range ? { range } : {}),
    hint: 'rename the policy: /v1/acl/policy/self is where Nomad lists the calling token\'s own policies',
  });
}

/** `GET /v1/acl/policies`: stubs with Hash, no Rules. Non-management tokens see only their own policies. */
export function listAclPolicies(client: NomadClient, call: CallOptions = {}): Promise<WireAclPolicyStub[]> {
  return readList(client, { path: '/v1/acl/policies', subject: 'ACL policy list' }, parseAclPolicyStubs, call);
}

/** `GET /v1/acl/policy/:name`; undefined on 404 `ACL policy not found`. */
export async function readAclPolicy(client: NomadClient, name: string, call: CallOptions = {}): Promise<WireAclPolicy | undefined> {
  refuseSelfPolicy(name, call.range);
  return readOrAbsent(client, { path: policyPath(name), subject: `NomadAclPolicy/${name}` }, (body) => parseAclPolicy(body, name), call);
}

/**
 * `POST /v1/acl/policy/:name`: create or update by name, so repeating it is safe. Nomad answers 200 with
 * an empty body and writes even when nothing changed (ModifyIndex moves): callers skip unchanged policies.
 * Returns the write's raft index (`X-Nomad-Index`), for a read that must see the write.
 */
export async function upsertAclPolicy(client: NomadClient, body: WireAclPolicyRequest, call: CallOptions = {}): Promise<number> {
  refuseSelfPolicy(body.Name, call.range);
  const res = await writeOk(client, { method: 'POST', path: policyPath(body.Name), subject: `NomadAclPolicy/${body.Name}`, body, idempotent: true }, call);
  return Number(res.headers['x-nomad-index'] ?? 0);
}

/**
 * `DELETE /v1/acl/policy/:name`: 200 whether or not the policy existed, so it is idempotent and cannot tell
 * the two apart. Roles linking the policy keep a dangling link, which makes their next update fail:
 * callers update or delete those roles first.
 */
export async function deleteAclPolicy(client: NomadClient, name: string, call: CallOptions = {}): Promise<void> {
  refuseSelfPolicy(name, call.range);
  await deleteSettled(client, { path: policyPath(name), subject: `NomadAclPolicy/${name}` }, { idempotent: true }, call);
}

