import { goneCheck, type CallOptions, type DeleteResult, type NomadClient } from '../../../providers/nomad/client.js';
import { isAlreadyGone } from '../../../providers/nomad/errors.js';
import { decodeJson } from '../../../providers/nomad/wire.js';
import { parseBindingRule, parseBindingRuleStubs, type WireBindingRule, type WireBindingRuleRequest, type WireBindingRuleStub } from './wire.js';

/*
 * The binding rule endpoints, sent over the provider's connection (NomadClient.send: token, region, errors);
 * facts from docs/reference/nomad-api.md §10.
 */

const rulePath = (id: string) => `/v1/acl/binding-rule/${encodeURIComponent(id)}`;

/** `GET /v1/acl/binding-rules`: stubs without Selector/BindType/BindName; needs management (§10). */
export async function listBindingRules(client: NomadClient, call: CallOptions = {}): Promise<WireBindingRuleStub[]> {
  const req = { method: 'GET' as const, path: '/v1/acl/binding-rules', subject: 'binding rule list' };
  const res = await client.send(req, call);
  if (res.status !== 200) client.fail(res, req, call);
  return parseBindingRuleStubs(decodeJson(res.text, req.subject));
}

export async function readBindingRule(client: NomadClient, id: string, call: CallOptions = {}): Promise<WireBindingRule | undefined> {
  const req = { method: 'GET' as const, path: rulePath(id), subject: `binding rule ${id}` };
  const res = await client.send(req, call);
  if (res.status === 404) return undefined;
  if (res.status !== 200) client.fail(res, req, call);
  return parseBindingRule(decodeJson(res.text, req.subject), req.subject);
}

/** `POST /v1/acl/binding-rule`: makes a new UUID each time, so it is NOT idempotent. */
export async function createBindingRule(client: NomadClient, body: WireBindingRuleRequest, subject: string, call: CallOptions = {}): Promise<WireBindingRule> {
  const req = { method: 'POST' as const, path: '/v1/acl/binding-rule', subject };
  const res = await client.send({ ...req, body, idempotent: false }, call);
  if (res.status !== 200) client.fail(res, req, call);
  return parseBindingRule(decodeJson(res.text, subject), subject);
}

/** `POST /v1/acl/binding-rule/:id` with every field (omitted Description/Selector are cleared, §10): idempotent. */
export async function updateBindingRule(client: NomadClient, id: string, body: WireBindingRuleRequest, subject: string, call: CallOptions = {}): Promise<WireBindingRule> {
  const req = { method: 'POST' as const, path: rulePath(id), subject };
  const res = await client.send({ ...req, body: { ...body, ID: id }, idempotent: true }, call);
  if (res.status !== 200) client.fail(res, req, call);
  return parseBindingRule(decodeJson(res.text, subject), subject);
}

/** Missing rule: 404, or plain `ACL binding rule not found` as a 500 (§10). */
export async function deleteBindingRule(client: NomadClient, id: string, subject: string): Promise<DeleteResult> {
  const req = { method: 'DELETE' as const, path: rulePath(id), subject };
  const res = await client.send({ ...req, ...goneCheck(async () => (await readBindingRule(client, id)) === undefined) });
  if (res.status === 200 || res.status === 204) return 'deleted';
  if (isAlreadyGone(res)) return 'already-gone';
  client.fail(res, req);
}

