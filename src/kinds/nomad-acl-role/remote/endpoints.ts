import { ConvergeError } from '../../../diagnostics/errors.js';
import type { HttpResponse } from '../../../http/types.js';
import type { CallOptions, DeleteResult, NomadClient } from '../../../providers/nomad/client.js';
import { deleteSettled, notFoundAnswer, readList, readOrAbsent, writeParsed } from '../../../providers/nomad/requests.js';
import { parseAclRole, parseAclRoles, type WireAclRole, type WireAclRoleRequest } from './wire.js';

/*
 * The ACL role endpoints, sent over the provider's connection (NomadClient.send: token, region, errors).
 * Facts: src/sandbox/nomad/SPEC.md "ACL roles", from nomad/acl_endpoint.go and nomad/state/state_store_acl.go.
 */

const rolePath = (id: string) => `/v1/acl/role/${encodeURIComponent(id)}`;

/**
 * A role renamed to a name another role holds is refused by Nomad's state store, uncoded, so it arrives
 * as a 500 `ACL role with name <n> already exists` (nomad/state/state_store_acl.go upsertACLRoleTxn):
 * final, and the user's to fix. A create with a taken name is the RPC's 400 `role with name <n> already exists`.
 */
const ROLE_NAME_TAKEN = /ACL role with name (.+) already exists/;
const isRoleNameTaken = (res: HttpResponse): boolean => res.status === 500 && ROLE_NAME_TAKEN.test(res.text);

/** Delete of a missing role: the state store's uncoded 500 `ACL role not found` (state_store_acl.go). */
export const isRoleGone = notFoundAnswer(/ACL role not found/);

/** `GET /v1/acl/roles`: every field but sorted by ID; non-management tokens see only roles linked to them. */
export function listAclRoles(client: NomadClient, call: CallOptions = {}): Promise<WireAclRole[]> {
  return readList(client, { path: '/v1/acl/roles', subject: 'ACL role list' }, parseAclRoles, call);
}

/** `GET /v1/acl/role/:id`; undefined on 404 `ACL role not found`. */
export function readAclRole(client: NomadClient, id: string, call: CallOptions = {}): Promise<WireAclRole | undefined> {
  return readRoleAt(client, rolePath(id), `ACL role ${id}`, call);
}

/** `GET /v1/acl/role/name/:name` (names are unique); undefined on 404. */
export function readAclRoleByName(client: NomadClient, name: string, call: CallOptions = {}): Promise<WireAclRole | undefined> {
  return readRoleAt(client, `/v1/acl/role/name/${encodeURIComponent(name)}`, `NomadAclRole/${name}`, call);
}

function readRoleAt(client: NomadClient, path: string, subject: string, call: CallOptions): Promise<WireAclRole | undefined> {
  return readOrAbsent(client, { path, subject }, (body) => parseAclRole(body, subject), call);
}

/**
 * `POST /v1/acl/role` without an ID: the server makes a UUID, so this is NOT idempotent. After a lost
 * reply or a 5xx, a read by name (names are unique) finds the role the attempt made instead of making a
 * second request, which would fail `role with name <n> already exists`.
 */
export async function createAclRole(client: NomadClient, body: WireAclRoleRequest, call: CallOptions = {}): Promise<WireAclRole> {
  const subject = `NomadAclRole/${body.Name}`;
  const readBack = async (): Promise<HttpResponse | undefined> => {
    const found = await readAclRoleByName(client, body.Name, call);
    return found ? { status: 200, headers: {}, text: JSON.stringify(found) } : undefined;
  };
  const { ID: _ignored, ...rest } = body;
  return writeParsed(client, { method: 'POST', path: '/v1/acl/role', subject, body: rest, idempotent: false, readBack }, (reply) => parseAclRole(reply, subject), call);
}

/**
 * `POST /v1/acl/role/:id` with every field: renames too. Idempotent (an unchanged role writes nothing).
 * Every linked policy must exist (400 `cannot find policy <n>`).
 */
export async function updateAclRole(client: NomadClient, id: string, body: WireAclRoleRequest, call: CallOptions = {}): Promise<WireAclRole> {
  const subject = `NomadAclRole/${body.Name}`;
  const req = { method: 'POST' as const, path: rolePath(id), subject, body: { ...body, ID: id }, idempotent: true, isFinal: isRoleNameTaken };
  const refuse = (res: HttpResponse): void => {
    if (!isRoleNameTaken(res)) return;
    const other = ROLE_NAME_TAKEN.exec(res.text)?.[1] ?? body.Name;
    throw new ConvergeError('nomad.role-name-taken', `Nomad rejected ${subject}: another ACL role is already named ${other}`, {
      source: 'user',
      status: res.status,
      ...(call.range ? { range: call.range } : {}),
      hint: `role names are unique: rename or delete the other role named ${other} first`,
    });
  };
  return writeParsed(client, req, (reply) => parseAclRole(reply, subject), call, refuse);
}

/** `DELETE /v1/acl/role/:id`: 200 empty; a missing role is a 500 `ACL role not found`, settled by a read-back. */
export function deleteAclRole(client: NomadClient, id: string, subject: string): Promise<DeleteResult> {
  const isGone = async () => (await readAclRole(client, id)) === undefined;
  return deleteSettled(client, { path: rolePath(id), subject }, { settle: { isGone, notFound: isRoleGone } });
}
