import { Reader, type Obj } from '../../../providers/nomad/wire.js';

/*
 * Nomad's JSON for ACL policies. Nomad's source is the reference (nomad/structs/acl.go ACLPolicy, ACLPolicyListStub, JobACL; facts in
 * src/sandbox/nomad/SPEC.md "ACL policies"). No times; Hash is base64. A policy GET also carries `RulesJSON`
 * (the server's parse of Rules, derived on every read): it is not read, so it cannot steer a diff.
 * Every response is checked here, at the boundary: another shape is a `nomad.bad-response` naming the field.
 */

export interface WireJobAcl {
  Namespace: string;
  JobID: string;
  Group: string;
  Task: string;
}

export interface WireAclPolicyStub {
  Name: string;
  Description: string;
  JobACL: WireJobAcl | null;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface WireAclPolicy extends WireAclPolicyStub {
  /** Exactly as last written: the server neither trims nor reformats it. */
  Rules: string;
}

/** Body of `POST /v1/acl/policy/:name`: the whole policy; an omitted field is cleared (no merge). */
export interface WireAclPolicyRequest {
  Name: string;
  Description: string;
  Rules: string;
  JobACL: WireJobAcl | null;
}

function parseJobAcl(r: Reader, v: unknown, path: string): WireJobAcl | null {
  if (v === undefined || v === null) return null;
  const o = r.object(v, `${path}JobACL`);
  const p = `${path}JobACL.`;
  return { Namespace: r.string(o, 'Namespace', p, true), JobID: r.string(o, 'JobID', p, true), Group: r.string(o, 'Group', p, true), Task: r.string(o, 'Task', p, true) };
}

function parsePolicyStubAt(r: Reader, o: Obj, p: string): WireAclPolicyStub {
  return {
    Name: r.string(o, 'Name', p),
    Description: r.string(o, 'Description', p, true),
    JobACL: parseJobAcl(r, o.JobACL, p),
    Hash: r.string(o, 'Hash', p, true),
    CreateIndex: r.number(o, 'CreateIndex', p),
    ModifyIndex: r.number(o, 'ModifyIndex', p),
  };
}

export function parseAclPolicyStubs(body: unknown): WireAclPolicyStub[] {
  const r = new Reader('the ACL policy list');
  return r.array(body, 'body').map((x, i) => parsePolicyStubAt(r, r.object(x, `[${i}]`), `[${i}].`));
}

export function parseAclPolicy(body: unknown, name: string): WireAclPolicy {
  const r = new Reader(`ACL policy ${name}`);
  const o = r.object(body, 'body');
  return { ...parsePolicyStubAt(r, o, ''), Rules: r.string(o, 'Rules', '', true) };
}
