import { Reader, type Obj } from '../../../providers/nomad/wire.js';

/*
 * Nomad's JSON for ACL roles. Nomad's source is the reference (nomad/structs/acl.go ACLRole,
 * ACLRoleListStub; facts in src/sandbox/nomad/SPEC.md "ACL roles"). No times; Hash is base64. Every
 * response is checked here, at the boundary: another shape is a `nomad.bad-response` naming the field.
 */

export interface WireAclRolePolicyLink {
  Name: string;
}

/** The list stub and the full role have the same fields (nomad/structs/acl.go ACLRoleListStub). */
export interface WireAclRole {
  ID: string;
  Name: string;
  Description: string;
  Policies: WireAclRolePolicyLink[];
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

/** Body of a role create (no ID) or update (`ID` = the path's ID); every field, always. */
export interface WireAclRoleRequest {
  ID?: string;
  Name: string;
  Description: string;
  Policies: WireAclRolePolicyLink[];
}

function parseRoleAt(r: Reader, o: Obj, p: string): WireAclRole {
  const links = o.Policies === undefined || o.Policies === null ? [] : r.array(o.Policies, `${p}Policies`);
  return {
    ID: r.string(o, 'ID', p),
    Name: r.string(o, 'Name', p),
    Description: r.string(o, 'Description', p, true),
    Policies: links.map((l, j) => ({ Name: r.string(r.object(l, `${p}Policies[${j}]`), 'Name', `${p}Policies[${j}].`) })),
    Hash: r.string(o, 'Hash', p, true),
    CreateIndex: r.number(o, 'CreateIndex', p),
    ModifyIndex: r.number(o, 'ModifyIndex', p),
  };
}

export function parseAclRoles(body: unknown): WireAclRole[] {
  const r = new Reader('the ACL role list');
  return r.array(body, 'body').map((x, i) => parseRoleAt(r, r.object(x, `[${i}]`), `[${i}].`));
}

export function parseAclRole(body: unknown, what: string): WireAclRole {
  const r = new Reader(what);
  return parseRoleAt(r, r.object(body, 'body'), '');
}
