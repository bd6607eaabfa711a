import type { CallOptions, DeleteResult, NomadClient } from '../../../providers/nomad/client.js';
import { isDefaultTaken } from '../../../providers/nomad/errors.js';
import { deleteSettled, notFoundAnswer, readList, readOrAbsent, writeParsed } from '../../../providers/nomad/requests.js';
import { parseAuthMethod, parseAuthMethodStubs, type WireAuthMethod, type WireAuthMethodRequest, type WireAuthMethodStub } from './wire.js';

/*
 * The auth method endpoints, sent over the provider's connection (NomadClient.send: token, region, errors);
 * facts from docs/reference/nomad-api.md (§N below).
 */

const methodPath = (name: string) => `/v1/acl/auth-method/${encodeURIComponent(name)}`;

/** `GET /v1/acl/auth-methods`: stubs with Hash (§2). Needs no token. */
export function listAuthMethods(client: NomadClient, call: CallOptions = {}): Promise<WireAuthMethodStub[]> {
  return readList(client, { path: '/v1/acl/auth-methods', subject: 'auth method list' }, parseAuthMethodStubs, call);
}

/** `GET /v1/acl/auth-method/:name`; undefined on 404 `ACL auth-method not found` (§6). */
export function readAuthMethod(client: NomadClient, name: string, call: CallOptions = {}): Promise<WireAuthMethod | undefined> {
  return readOrAbsent(client, { path: methodPath(name), subject: `NomadAuthMethod/${name}` }, (body) => parseAuthMethod(body, name), call);
}

/**
 * `POST /v1/acl/auth-method/:name`: one upsert keyed by name (§3.1), so repeating it is safe and
 * the HTTP layer may retry it like an idempotent request.
 */
export function upsertAuthMethod(client: NomadClient, body: WireAuthMethodRequest, call: CallOptions = {}): Promise<WireAuthMethod> {
  const req = { method: 'POST' as const, path: methodPath(body.Name), subject: `NomadAuthMethod/${body.Name}`, body, idempotent: true, isFinal: isDefaultTaken };
  return writeParsed(client, req, (reply) => parseAuthMethod(reply, body.Name), call);
}

/** Delete of a missing method: 404, or the plain 500 `ACL auth method not found` (§8). */
export const isAuthMethodGone = notFoundAnswer(/ACL auth method not found/i);

/** `DELETE /v1/acl/auth-method/:name`: 200 empty; a missing method is 500 `ACL auth method not found` (§8). */
export function deleteAuthMethod(client: NomadClient, name: string): Promise<DeleteResult> {
  const isGone = async () => (await readAuthMethod(client, name)) === undefined;
  return deleteSettled(client, { path: methodPath(name), subject: `NomadAuthMethod/${name}` }, { settle: { isGone, notFound: isAuthMethodGone } });
}

