import type { CallOptions, DeleteResult, NomadClient } from '../../../providers/nomad/client.js';
import { deleteSettled, notFoundAnswer, readList, readOrAbsent, writeParsed } from '../../../providers/nomad/requests.js';
import { parseBindingRule, parseBindingRuleStubs, type WireBindingRule, type WireBindingRuleRequest, type WireBindingRuleStub } from './wire.js';

/*
 * The binding rule endpoints, sent over the provider's connection (NomadClient.send: token, region, errors);
 * facts from docs/reference/nomad-api.md §10.
 */

const rulePath = (id: string) => `/v1/acl/binding-rule/${encodeURIComponent(id)}`;

/** `GET /v1/acl/binding-rules`: stubs without Selector/BindType/BindName; needs management (§10). */
export function listBindingRules(client: NomadClient, call: CallOptions = {}): Promise<WireBindingRuleStub[]> {
  return readList(client, { path: '/v1/acl/binding-rules', subject: 'binding rule list' }, parseBindingRuleStubs, call);
}

export function readBindingRule(client: NomadClient, id: string, call: CallOptions = {}): Promise<WireBindingRule | undefined> {
  const subject = `binding rule ${id}`;
  return readOrAbsent(client, { path: rulePath(id), subject }, (body) => parseBindingRule(body, subject), call);
}

/** `POST /v1/acl/binding-rule`: makes a new UUID each time, so it is NOT idempotent. */
export function createBindingRule(client: NomadClient, body: WireBindingRuleRequest, subject: string, call: CallOptions = {}): Promise<WireBindingRule> {
  return writeParsed(client, { method: 'POST', path: '/v1/acl/binding-rule', subject, body, idempotent: false }, (reply) => parseBindingRule(reply, subject), call);
}

/** `POST /v1/acl/binding-rule/:id` with every field (omitted Description/Selector are cleared, §10): idempotent. */
export function updateBindingRule(client: NomadClient, id: string, body: WireBindingRuleRequest, subject: string, call: CallOptions = {}): Promise<WireBindingRule> {
  const req = { method: 'POST' as const, path: rulePath(id), subject, body: { ...body, ID: id }, idempotent: true };
  return writeParsed(client, req, (reply) => parseBindingRule(reply, subject), call);
}

/** Missing rule: 404, or plain `ACL binding rule not found` as a 500 (§10). */
export const isBindingRuleGone = notFoundAnswer(/ACL binding rule not found/i);

export function deleteBindingRule(client: NomadClient, id: string, subject: string): Promise<DeleteResult> {
  const isGone = async () => (await readBindingRule(client, id)) === undefined;
  return deleteSettled(client, { path: rulePath(id), subject }, { settle: { isGone, notFound: isBindingRuleGone } });
}

