import { Reader } from '../../../providers/nomad/wire.js';

/*
 * Nomad's JSON for ACL binding rules (docs/reference/nomad-api.md §10), checked at the boundary: a response of
 * another shape is a `nomad.bad-response` naming the field.
 */

export interface WireBindingRuleStub {
  ID: string;
  Description: string;
  AuthMethod: string;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface WireBindingRule extends WireBindingRuleStub {
  Selector: string;
  BindType: string;
  BindName: string;
}

export interface WireBindingRuleRequest {
  ID?: string;
  Description: string;
  AuthMethod: string;
  Selector: string;
  BindType: string;
  BindName: string;
}

export function parseBindingRuleStubs(body: unknown): WireBindingRuleStub[] {
  const r = new Reader('the binding rule list');
  return r.array(body, 'body').map((x, i) => {
    const o = r.object(x, `[${i}]`);
    const p = `[${i}].`;
    return {
      ID: r.string(o, 'ID', p),
      Description: r.string(o, 'Description', p, true),
      AuthMethod: r.string(o, 'AuthMethod', p, true),
      Hash: r.string(o, 'Hash', p, true),
      CreateIndex: r.number(o, 'CreateIndex', p),
      ModifyIndex: r.number(o, 'ModifyIndex', p),
    };
  });
}

export function parseBindingRule(body: unknown, what: string): WireBindingRule {
  const r = new Reader(what);
  const o = r.object(body, 'body');
  return {
    ID: r.string(o, 'ID', ''),
    Description: r.string(o, 'Description', '', true),
    AuthMethod: r.string(o, 'AuthMethod', '', true),
    Selector: r.string(o, 'Selector', '', true),
    BindType: r.string(o, 'BindType', '', true),
    BindName: r.string(o, 'BindName', '', true),
    Hash: r.string(o, 'Hash', '', true),
    CreateIndex: r.number(o, 'CreateIndex', ''),
    ModifyIndex: r.number(o, 'ModifyIndex', ''),
  };
}
