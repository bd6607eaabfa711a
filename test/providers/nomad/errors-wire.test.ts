import { describe, expect, it } from 'vitest';
import { flattenMultierror, nomadError } from '../../../src/providers/nomad/errors.js';
import { isAuthMethodGone } from '../../../src/kinds/nomad-auth-method/remote/endpoints.js';
import { isBindingRuleGone } from '../../../src/kinds/nomad-binding-rule/remote/endpoints.js';
import { isRoleGone } from '../../../src/kinds/nomad-acl-role/remote/endpoints.js';
import { decodeJson } from '../../../src/providers/nomad/wire.js';
import { parseBindingRuleStubs } from '../../../src/kinds/nomad-binding-rule/remote/wire.js';
import { parseAuthMethod, parseAuthMethodStubs } from '../../../src/kinds/nomad-auth-method/remote/wire.js';
import { refineBindingRule } from '../../../src/kinds/nomad-binding-rule/remote/refine.js';
import { reasonSentence } from '../../../src/views/change-sentences.js';
import type { ObjectView } from '../../../src/providers/provider.js';
import { RANGE, rule } from './helpers.js';
import { bindingRuleFields } from '../../../src/kinds/nomad-binding-rule/remote/mapping.js';

const res = (status: number, text: string) => ({ status, headers: {}, text });
const ctx = { method: 'POST', path: '/v1/acl/auth-method/okta', subject: 'NomadAuthMethod/okta', range: RANGE };

describe('nomadError (docs/reference/nomad-api.md §6)', () => {
  it('403 → nomad.permission-denied naming NOMAD_TOKEN and a management token', () => {
    const e = nomadError(res(403, 'Permission denied'), ctx);
    expect(e.code).toBe('nomad.permission-denied');
    expect(e.source).toBe('user');
    expect(e.hint).toContain('NOMAD_TOKEN');
    expect(e.hint).toContain('management token');
  });

  it('400 validation text passes through, flattened, naming the object, with its range', () => {
    const e = nomadError(res(400, 'auth method 0 invalid: 2 errors occurred:\n\t* missing OIDCClientID\n\t* invalid token locality \'x\'\n\n'), ctx);
    expect(e.code).toBe('nomad.invalid');
    expect(e.message).toBe("Nomad rejected NomadAuthMethod/okta (400): auth method 0 invalid: missing OIDCClientID; invalid token locality 'x'");
    expect(e.range).toEqual(RANGE);
  });

  it('400 default method already exists → nomad.default-exists naming the other method', () => {
    const e = nomadError(res(400, 'default method already exists: gh'), ctx);
    expect(e.code).toBe('nomad.default-exists');
    expect(e.message).toContain('gh');
  });

  it('404 and 5xx', () => {
    expect(nomadError(res(404, 'ACL auth-method not found'), ctx).code).toBe('nomad.not-found');
    const e = nomadError(res(500, 'No cluster leader'), ctx);
    expect(e.code).toBe('nomad.server-error');
    expect(e.retryable).toBe(true);
  });

  it('delete of a missing object: each kind\'s 500 "ACL … not found" and 404 are already gone', () => {
    expect(isAuthMethodGone(res(500, 'ACL auth method not found'))).toBe(true);
    expect(isAuthMethodGone(res(500, 'rpc error: ACL auth method not found'))).toBe(true);
    expect(isBindingRuleGone(res(500, 'ACL binding rule not found'))).toBe(true);
    expect(isRoleGone(res(500, 'ACL role not found'))).toBe(true);
    for (const gone of [isAuthMethodGone, isBindingRuleGone, isRoleGone]) {
      expect(gone(res(404, ''))).toBe(true);
      expect(gone(res(500, 'No cluster leader'))).toBe(false);
    }
    // Each kind takes only its own not-found text.
    expect(isAuthMethodGone(res(500, 'ACL binding rule not found'))).toBe(false);
  });

  it('flattenMultierror keeps single-line texts', () => {
    expect(flattenMultierror('ACL auth method okta not found')).toBe('ACL auth method okta not found');
  });
});

describe('wire validation at the boundary', () => {
  it('a malformed response is nomad.bad-response naming the field', () => {
    expect(() => parseAuthMethodStubs({ Name: 'x' })).toThrow(expect.objectContaining({ code: 'nomad.bad-response' }));
    expect(() => parseAuthMethodStubs([{ Type: 'OIDC' }])).toThrow(/\[0\]\.Name is missing/);
    expect(() => parseAuthMethod({ Name: 'x', Config: { OIDCScopes: 'groups' } }, 'x')).toThrow(/Config\.OIDCScopes is not an array/);
    expect(() => parseAuthMethod({ Name: 'x', Default: 'yes' }, 'x')).toThrow(/Default is not a boolean/);
    expect(() => parseBindingRuleStubs([{ ID: 3 }])).toThrow(/ID is not a string/);
    expect(() => decodeJson('<html>', 'x')).toThrow(expect.objectContaining({ code: 'nomad.bad-response' }));
  });

  it('accepts null for nil lists and maps and missing newer fields', () => {
    const m = parseAuthMethod({ Name: 'x', Type: 'JWT', TokenLocality: 'local', MaxTokenTTL: '1h0m0s', Config: { BoundAudiences: null, ClaimMappings: null } }, 'x');
    expect(m.Config?.BoundAudiences).toBeNull();
    expect(m.Config?.OIDCEnablePKCE).toBe(false);
    expect(parseAuthMethodStubs([])).toEqual([]);
  });
});

describe('refine', () => {
  it("an auth method change on an existing rule becomes delete + create", () => {
    const d = rule('eng', { authMethod: 'gh' });
    const view: ObjectView = {
      kind: 'NomadBindingRule',
      name: 'eng',
      desired: { object: d, fields: bindingRuleFields(d.spec), secrets: {} },
      live: { id: 'uuid-1', fields: bindingRuleFields({ ...d.spec, authMethod: 'okta' }), extra: { hash: 'h' } },
    };
    const change = {
      kind: 'NomadBindingRule' as const,
      name: 'eng',
      id: 'uuid-1',
      action: 'update' as const,
      fields: [{ path: 'authMethod', before: 'okta', after: 'gh', sensitive: false }],
      notes: [],
    };
    const out = refineBindingRule(view, change);
    expect(out.map((c) => c.action)).toEqual(['delete', 'create']);
    expect(out[0]?.id).toBe('uuid-1');
    expect(out[1]?.id).toBeUndefined();
    expect(out.every((c) => c.reasons?.[0]?.code === 'replace-auth-method')).toBe(true);
    expect(reasonSentence({ code: 'replace-auth-method' })).not.toMatch(/reference|§/);
  });

  it('leaves other changes alone', () => {
    const d = rule('eng', { authMethod: 'okta', description: 'new' });
    const view: ObjectView = {
      kind: 'NomadBindingRule',
      name: 'eng',
      desired: { object: d, fields: bindingRuleFields(d.spec), secrets: {} },
      live: { id: 'uuid-1', fields: bindingRuleFields({ ...d.spec, description: 'old' }), extra: {} },
    };
    const change = { kind: 'NomadBindingRule' as const, name: 'eng', action: 'update' as const, fields: [], notes: [] };
    expect(refineBindingRule(view, change)).toEqual([change]);
  });
});
