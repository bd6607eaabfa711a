import type { HttpRequest, HttpResponse } from '../../http/types.js';
import { goneCheck, type CallOptions, type DeleteResult, type NomadClient } from './client.js';
import { decodeJson } from './wire.js';

/*
 * The shapes every Nomad ACL endpoint shares, over the connection (NomadClient.send and fail): a read
 * where 404 means absent, a list, a write answered 200, and a delete settled by a read-back. A kind's
 * endpoints (src/kinds/<kind>/remote/endpoints.ts) give the path, the subject, the parse of its wire
 * shape and its own not-found answer; the status handling is here, once.
 */

/** Where a request goes and what it is about (`<Kind>/<name>`, for messages and errors). */
export interface Endpoint {
  path: string;
  subject: string;
}

/** A write's request: the endpoint, the body and how the HTTP layer may repeat it. */
export type WriteRequest = Endpoint & Pick<HttpRequest, 'idempotent' | 'readBack' | 'isFinal'> & { method: 'POST' | 'PUT'; body: unknown };

/** `GET` of one object: 200 → parsed, 404 → undefined (Nomad's `… not found`), anything else → the coded error. */
export async function readOrAbsent<T>(client: NomadClient, at: Endpoint, parse: (body: unknown) => T, call: CallOptions = {}): Promise<T | undefined> {
  const req = { method: 'GET' as const, ...at };
  const res = await client.send(req, call);
  if (res.status === 404) return undefined;
  if (res.status !== 200) client.fail(res, req, call);
  return parse(decodeJson(res.text, at.subject));
}

/** `GET` of a list: 200 → parsed, anything else → the coded error. */
export async function readList<T>(client: NomadClient, at: Endpoint, parse: (body: unknown) => T, call: CallOptions = {}): Promise<T> {
  const req = { method: 'GET' as const, ...at };
  const res = await client.send(req, call);
  if (res.status !== 200) client.fail(res, req, call);
  return parse(decodeJson(res.text, at.subject));
}

/**
 * A create or update: 200 → the answer, anything else → the coded error. `refuse` may throw a more
 * precise error for an answer the kind knows (a taken role name) before the generic one.
 */
export async function writeOk(client: NomadClient, req: WriteRequest, call: CallOptions = {}, refuse?: (res: HttpResponse) => void): Promise<HttpResponse> {
  const { body, idempotent, readBack, isFinal, ...at } = req;
  const res = await client.send({ ...at, body, ...(idempotent !== undefined ? { idempotent } : {}), ...(readBack ? { readBack } : {}), ...(isFinal ? { isFinal } : {}) }, call);
  if (res.status !== 200) {
    refuse?.(res);
    client.fail(res, at, call);
  }
  return res;
}

/** {@link writeOk} whose answer is the object written, parsed. */
export async function writeParsed<T>(client: NomadClient, req: WriteRequest, parse: (body: unknown) => T, call: CallOptions = {}, refuse?: (res: HttpResponse) => void): Promise<T> {
  const res = await writeOk(client, req, call, refuse);
  return parse(decodeJson(res.text, req.subject));
}

/**
 * How a kind's delete is settled. `settle`: Nomad answers a delete of a missing object with an error
 * (often an uncoded 500 `ACL … not found`), so the delete goes as non-idempotent with a read-back
 * (client.ts goneCheck): `isGone` reads whether the object is still there, `notFound` recognises the
 * kind's own not-found answer. `idempotent`: Nomad answers 200 whether or not the object existed, so
 * the delete is simply repeated on a passing fault, and the result cannot be told.
 */
export type DeleteSettling = { settle: { isGone: () => Promise<boolean>; notFound: (res: HttpResponse) => boolean } } | { idempotent: true };

/** `DELETE`: 200/204 → deleted, the kind's not-found (or the read-back's confirmation) → already gone, else the coded error. */
export async function deleteSettled(client: NomadClient, at: Endpoint, how: DeleteSettling, call: CallOptions = {}): Promise<DeleteResult> {
  const req = { method: 'DELETE' as const, ...at };
  const res = await client.send({ ...req, ...('settle' in how ? goneCheck(how.settle.isGone) : { idempotent: true }) }, call);
  if (res.status === 200 || res.status === 204) return 'deleted';
  if ('settle' in how && how.settle.notFound(res)) return 'already-gone';
  client.fail(res, req, call);
}

/** Nomad's not-found answer for a kind: 404, or the state store's uncoded 500 whose text `pattern` matches. */
export function notFoundAnswer(pattern: RegExp): (res: HttpResponse) => boolean {
  return (res) => res.status === 404 || (res.status === 500 && pattern.test(res.text));
}
