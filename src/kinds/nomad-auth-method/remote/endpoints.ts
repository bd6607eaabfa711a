import { goneCheck, type CallOptions, type DeleteResult, type NomadClient } from '../../../providers/nomad/client.js';
import { isAlreadyGone, isDefaultTaken } from '../../../providers/nomad/errors.js';
import { decodeJson } from '../../../providers/nomad/wire.js';
import { parseAuthMethod, parseAuthMethodStubs, type WireAuthMethod, type WireAuthMethodRequest, type WireAuthMethodStub } from './wire.js';

/*
 * The auth method endpoints, sent over the provider's connection (NomadClient.send: token, region, errors);
 * facts from docs/reference/nomad-api.md (§N below).
 */

const methodPath = (name: string) => `/v1/acl/auth-method/${encodeURIComponent(name)}`;

/** `GET /v1/acl/auth-methods`: stubs with Hash (§2). Needs no token. */
export async function listAuthMethods(client: NomadClient, call: CallOptions = {}): Promise<WireAuthMethodStub[]> {
  const req = { method: 'GET' as const, path: '/v1/acl/auth-methods', subject: 'auth method list' };
  const res = await client.send(req, call);
  if (res.status !== 200) client.fail(res, req, call);
  return parseAuthMethodStubs(decodeJson(res.text, req.subject));
}

/** `GET /v1/acl/auth-method/:name`; undefined on 404 `ACL auth-method not found` (§6). */
export async function readAuthMethod(client: NomadClient, name: string, call: CallOptions = {}): Promise<WireAuthMethod | undefined> {
  const req = { method: 'GET' as const, path: methodPath(name), subject: `NomadAuthMethod/${name}` };
  const res = await client.send(req, call);
  if (res.status === 404) return undefined;
  if (res.status !== 200) client.fail(res, req, call);
  return parseAuthMethod(decodeJson(res.text, req.subject), name);
}

/**
 * `POST /v1/acl/auth-method/:name`: one upsert keyed by name (§3.1), so repeating it is safe and
 * the HTTP layer may retry it like an idempotent request.
 */
export async function upsertAuthMethod(client: NomadClient, body: WireAuthMethodRequest, call: CallOptions = {}): Promise<WireAuthMethod> {
  const req = { method: 'POST' as const, path: methodPath(body.Name), subject: `NomadAuthMethod/${body.Name}` };
  const res = await client.send({ ...req, body, idempotent: true, isFinal: isDefaultTaken }, call);
  if (res.status !== 200) client.fail(res, req, call);
  return parseAuthMethod(decodeJson(res.text, req.subject), body.Name);
}

/** `DELETE /v1/acl/auth-method/:name`: 200 empty; a missing method is 500 `ACL auth method not found` (§8). */
export async function deleteAuthMethod(client: NomadClient, name: string): Promise<DeleteResult> {
  const req = { method: 'DELETE' as const, path: methodPath(name), subject: `NomadAuthMethod/${name}` };
  const res = await client.send({ ...req, ...goneCheck(async () => (await readAuthMethod(client, name)) === undefined) });
  if (res.status === 200 || res.status === 204) return 'deleted';
  if (isAlreadyGone(res)) return 'already-gone';
  client.fail(res, req);
}

