/*
 * Logins with the outcome real Nomad gives them, each derived from a named place in Nomad's source or
 * tests (hashicorp/nomad lib/auth/*.go, acl/*.go, nomad/acl_endpoint.go) or go-bexpr's (hashicorp/go-bexpr
 * evaluate.go, grammar/ast.go). The offline explanation (src/login/) and the sandbox's login endpoint are
 * both held to this table (login-corpus.test.ts).
 */
import type { LoginWorld } from '../../src/login/index.js';

export interface LoginCase {
  name: string;
  /** Where the outcome comes from. */
  source: string;
  claimMappings?: Record<string, string>;
  listClaimMappings?: Record<string, string>;
  rules: { selector?: string; bindType: 'role' | 'policy' | 'management'; bindName?: string }[];
  claims: Record<string, unknown>;
  expect: {
    outcome: 'granted' | 'refused';
    refusal?: string;
    management?: boolean;
    roles?: string[];
    policies?: string[];
    /** Rule indexes whose selector matched. */
    matched?: number[];
    /** namespace → capabilities the token holds there (sorted). */
    namespaces?: Record<string, string[]>;
    agent?: string;
    node?: string;
  };
}

/** Roles and policies every case may bind. */
export const CORPUS_POLICIES: Record<string, string> = {
  readonly: 'namespace "default" {\n  policy = "read"\n}\nnode {\n  policy = "read"\n}\n',
  writer: 'namespace "default" {\n  policy = "write"\n}\nnode {\n  policy = "write"\n}\nagent {\n  policy = "read"\n}\n',
  'deny-default': 'namespace "default" {\n  policy = "deny"\n}\nnode {\n  policy = "deny"\n}\n',
  submitter: 'namespace "apps" {\n  capabilities = ["submit-job"]\n  policy = "scale"\n}\n',
  'host-volumes': 'namespace "apps" {\n  capabilities = ["host-volume-register"]\n}\n',
};
export const CORPUS_ROLES: Record<string, string[]> = {
  developer: ['readonly', 'writer'],
  engineering: ['submitter'],
  'vim-role': ['readonly'],
  'half-role': ['readonly', 'gone-policy'],
};

const READ = ['csi-list-volume', 'csi-read-volume', 'host-volume-read', 'list-jobs', 'list-scaling-policies', 'parse-job', 'read-job', 'read-job-scaling', 'read-scaling-policy'];
const WRITE = [...READ, 'alloc-exec', 'alloc-lifecycle', 'csi-mount-volume', 'csi-write-volume', 'dispatch-job', 'host-volume-create', 'read-fs', 'read-logs', 'scale-job', 'submit-job', 'submit-recommendation'].sort();

export const LOGIN_CASES: LoginCase[] = [
  {
    name: 'list membership with in',
    source: 'lib/auth/binder_test.go Test_doesSelectorMatch "valid selector and successful evaluation"; go-bexpr evaluate.go doMatchIn',
    listClaimMappings: { groups: 'groups' },
    rules: [{ selector: '"eng" in list.groups', bindType: 'role', bindName: 'developer' }],
    claims: { groups: ['sales', 'eng'] },
    expect: { outcome: 'granted', roles: ['developer'], matched: [0], namespaces: { default: WRITE }, node: 'write', agent: 'read' },
  },
  {
    name: 'no rule matches: refused',
    source: 'nomad/acl_endpoint.go Login: "no role or policy bindings matched"',
    listClaimMappings: { groups: 'groups' },
    rules: [{ selector: '"eng" in list.groups', bindType: 'role', bindName: 'developer' }],
    claims: { groups: ['sales'] },
    expect: { outcome: 'refused', refusal: 'no role or policy bindings matched', matched: [] },
  },
  {
    name: 'empty selector matches every login',
    source: 'lib/auth/binder_test.go Test_doesSelectorMatch "catch-all"',
    rules: [{ bindType: 'policy', bindName: 'readonly' }],
    claims: {},
    expect: { outcome: 'granted', policies: ['readonly'], matched: [0], namespaces: { default: READ }, node: 'read' },
  },
  {
    name: 'a selector that does not parse matches nothing',
    source: 'lib/auth/binder.go doesSelectorMatch: "fails to match if selector is invalid"',
    rules: [{ selector: 'value.x ==', bindType: 'policy', bindName: 'readonly' }],
    claims: {},
    expect: { outcome: 'refused', matched: [] },
  },
  {
    name: 'string equality on a mapped claim',
    source: 'go-bexpr evaluate.go doMatchEqual; lib/auth/claims.go extractMappings',
    claimMappings: { email: 'email' },
    rules: [{ selector: 'value.email == "ada@acme.example"', bindType: 'policy', bindName: 'readonly' }],
    claims: { email: 'ada@acme.example' },
    expect: { outcome: 'granted', policies: ['readonly'], matched: [0] },
  },
  {
    name: 'missing claim: == is false, != is true',
    source: 'go-bexpr grammar/ast.go NotPresentDisposition (MatchEqual false, MatchNotEqual true)',
    claimMappings: { email: 'email' },
    rules: [
      { selector: 'value.email == "x"', bindType: 'policy', bindName: 'writer' },
      { selector: 'value.email != "x"', bindType: 'policy', bindName: 'readonly' },
    ],
    claims: {},
    expect: { outcome: 'granted', policies: ['readonly'], matched: [1] },
  },
  {
    name: 'missing list: not in is true, is empty is true',
    source: 'go-bexpr grammar/ast.go NotPresentDisposition (MatchNotIn true, MatchIsEmpty true)',
    listClaimMappings: { groups: 'groups' },
    rules: [
      { selector: '"eng" not in list.groups', bindType: 'policy', bindName: 'readonly' },
      { selector: 'list.groups is empty', bindType: 'policy', bindName: 'writer' },
    ],
    claims: {},
    expect: { outcome: 'granted', policies: ['readonly', 'writer'], matched: [0, 1] },
  },
  {
    name: 'unknown top-level field is an error, and not keeps it',
    source: 'go-bexpr evaluate.go getValue/evaluateNotPresent (parent not a map → error) and evaluate (not keeps the error); lib/auth/binder.go doesSelectorMatch',
    rules: [{ selector: 'not groups.x == "a"', bindType: 'policy', bindName: 'readonly' }],
    claims: {},
    expect: { outcome: 'refused', matched: [] },
  },
  {
    name: 'contains on a list claim',
    source: 'go-bexpr grammar: contains is the in operator with its sides swapped; evaluate.go doMatchIn',
    listClaimMappings: { roles: 'roles' },
    rules: [{ selector: 'list.roles contains "admin"', bindType: 'management' }],
    claims: { roles: ['admin'] },
    expect: { outcome: 'granted', management: true, matched: [0] },
  },
  {
    name: 'in on a string value is a substring test',
    source: 'go-bexpr evaluate.go doMatchIn, case reflect.String: strings.Contains',
    claimMappings: { email: 'email' },
    rules: [{ selector: '"@acme.example" in value.email', bindType: 'policy', bindName: 'readonly' }],
    claims: { email: 'ada@acme.example' },
    expect: { outcome: 'granted', policies: ['readonly'], matched: [0] },
  },
  {
    name: 'matches is an unanchored regular expression',
    source: 'go-bexpr evaluate.go doMatchMatches (regexp.Match)',
    claimMappings: { sub: 'sub' },
    rules: [
      { selector: 'value.sub matches "^repo:acme/.*:ref:refs/heads/main$"', bindType: 'policy', bindName: 'writer' },
      { selector: 'value.sub not matches "pull_request"', bindType: 'policy', bindName: 'readonly' },
    ],
    claims: { sub: 'repo:acme/deploy:ref:refs/heads/main' },
    expect: { outcome: 'granted', policies: ['writer', 'readonly'], matched: [0, 1] },
  },
  {
    name: '== on a list claim is an error: no match',
    source: 'go-bexpr evaluate.go doMatchEqual: "unable to find suitable primitive comparison function"',
    listClaimMappings: { groups: 'groups' },
    rules: [{ selector: 'list.groups == "eng"', bindType: 'policy', bindName: 'readonly' }],
    claims: { groups: ['eng'] },
    expect: { outcome: 'refused', matched: [] },
  },
  {
    name: 'and, or, not and parentheses',
    source: 'go-bexpr evaluate.go evaluate (BinaryOpAnd, BinaryOpOr, UnaryOpNot)',
    claimMappings: { team: 'team' },
    listClaimMappings: { groups: 'groups' },
    rules: [
      { selector: '(value.team == "core" or value.team == "web") and not "contractors" in list.groups', bindType: 'role', bindName: 'developer' },
      { selector: 'value.team == "core" and "contractors" in list.groups', bindType: 'management' },
    ],
    claims: { team: 'web', groups: ['staff'] },
    expect: { outcome: 'granted', roles: ['developer'], matched: [0] },
  },
  {
    name: 'numbers become integer text',
    source: 'lib/auth/claims.go stringifyClaimValue (float64 → strconv.FormatInt(int64(v))); go-bexpr getMatchExprValue (the field is a string)',
    claimMappings: { uid: 'uid', level: 'level' },
    rules: [
      { selector: 'value.uid == 1001', bindType: 'policy', bindName: 'readonly' },
      { selector: 'value.level == "2"', bindType: 'policy', bindName: 'writer' },
    ],
    claims: { uid: 1001, level: 2.9 },
    expect: { outcome: 'granted', policies: ['readonly', 'writer'], matched: [0, 1] },
  },
  {
    name: 'booleans become true/false text',
    source: 'lib/auth/claims.go stringifyClaimValue (strconv.FormatBool)',
    claimMappings: { email_verified: 'verified' },
    rules: [{ selector: 'value.verified == true', bindType: 'policy', bindName: 'readonly' }],
    claims: { email_verified: true },
    expect: { outcome: 'granted', policies: ['readonly'], matched: [0] },
  },
  {
    name: 'list claims: mixed items as text, nested list as JSON',
    source: 'lib/auth/claims_test.go TestSelectorData "list" and "nested list claim"',
    listClaimMappings: { roles: 'r' },
    rules: [
      { selector: '"42" in list.r and "false" in list.r', bindType: 'policy', bindName: 'readonly' },
      { selector: '"[\\"role1\\",\\"role2\\"]" in list.r', bindType: 'policy', bindName: 'writer' },
    ],
    claims: { roles: [['role1', 'role2'], 42, false] },
    expect: { outcome: 'granted', policies: ['readonly', 'writer'], matched: [0, 1] },
  },
  {
    name: 'a single value under a list mapping is a list of one',
    source: 'lib/auth/claims.go normalizeList',
    listClaimMappings: { groups: 'groups' },
    rules: [{ selector: '"eng" in list.groups', bindType: 'policy', bindName: 'readonly' }],
    claims: { groups: 'eng' },
    expect: { outcome: 'granted', policies: ['readonly'], matched: [0] },
  },
  {
    name: 'nested claims through a JSON pointer',
    source: 'lib/auth/claims.go getClaim (a leading "/" is a pointerstructure pointer)',
    claimMappings: { '/user/team': 'team', 'user.team': 'dotted' },
    listClaimMappings: { '/realm_access/roles': 'roles' },
    rules: [
      { selector: 'value.team == "core" and "admin" in list.roles', bindType: 'policy', bindName: 'readonly' },
      { selector: 'value.dotted is not empty', bindType: 'policy', bindName: 'writer' },
    ],
    claims: { user: { team: 'core' }, realm_access: { roles: ['admin'] } },
    expect: { outcome: 'granted', policies: ['readonly'], matched: [0] },
  },
  {
    name: 'an object under a value mapping fails the login',
    source: 'lib/auth/claims.go extractMappings: "error converting claim ... to string from unknown type"',
    claimMappings: { user: 'user' },
    rules: [{ bindType: 'policy', bindName: 'readonly' }],
    claims: { user: { team: 'core' } },
    expect: { outcome: 'refused', refusal: 'error converting claim' },
  },
  {
    name: 'bind name from a claim, lowercased',
    source: 'lib/auth/binder_test.go TestBinder_Bind "role" (${editor}-role → vim-role); lib/auth/binder.go computeBindName (InterpolateHIL lowercase=true)',
    claimMappings: { editor: 'editor' },
    rules: [{ bindType: 'role', bindName: '${value.editor}-role' }],
    claims: { editor: 'VIM' },
    expect: { outcome: 'granted', roles: ['vim-role'], matched: [0] },
  },
  {
    name: 'a bind name that is not a valid name refuses the login',
    source: 'lib/auth/binder.go Bind: "computed %q bind name for bind target is invalid"',
    claimMappings: { email: 'email' },
    rules: [
      { bindType: 'policy', bindName: 'readonly' },
      { bindType: 'role', bindName: '${value.email}' },
    ],
    claims: { email: 'ada@acme.example' },
    expect: { outcome: 'refused', refusal: 'bind name for bind target is invalid', matched: [0, 1] },
  },
  {
    name: 'a bind name variable the method does not map refuses the login',
    source: 'lib/auth/binder.go InterpolateHIL (HIL: unknown variable); lib/auth/identity.go NewIdentity',
    claimMappings: { email: 'email' },
    rules: [{ bindType: 'role', bindName: '${value.team}' }],
    claims: { email: 'a' },
    expect: { outcome: 'refused', refusal: 'cannot compute "role" bind name' },
  },
  {
    name: 'a mapped claim missing from the token interpolates as empty',
    source: 'lib/auth/identity.go NewIdentity ("Populate claimMappings vars with empty values so HIL works")',
    claimMappings: { team: 'team' },
    rules: [{ bindType: 'role', bindName: 'developer${value.team}' }],
    claims: {},
    expect: { outcome: 'granted', roles: ['developer'] },
  },
  {
    name: 'a role that does not exist is skipped, not refused',
    source: 'lib/auth/binder_test.go TestBinder_Bind (rule "this-role-does-not-exist" binds nothing); lib/auth/binder.go Bind',
    rules: [
      { bindType: 'role', bindName: 'this-role-does-not-exist' },
      { bindType: 'role', bindName: 'vim-role' },
    ],
    claims: {},
    expect: { outcome: 'granted', roles: ['vim-role'], matched: [0, 1] },
  },
  {
    name: 'only missing roles and policies: refused',
    source: 'lib/auth/binder.go Bindings.None; nomad/acl_endpoint.go Login',
    rules: [
      { bindType: 'role', bindName: 'no-such-role' },
      { bindType: 'policy', bindName: 'no-such-policy' },
    ],
    claims: {},
    expect: { outcome: 'refused', refusal: 'no role or policy bindings matched', matched: [0, 1] },
  },
  {
    name: 'management clears roles and policies',
    source: 'lib/auth/binder_test.go TestBinder_Bind "management"; lib/auth/binder.go Bind (management returns with no roles or policies)',
    claimMappings: { role: 'role' },
    rules: [
      { bindType: 'policy', bindName: 'readonly' },
      { selector: 'value.role == "admin"', bindType: 'management' },
    ],
    claims: { role: 'admin' },
    expect: { outcome: 'granted', management: true, roles: [], policies: [], matched: [0, 1] },
  },
  {
    name: 'deny wins over every grant for the same namespace',
    source: 'acl/acl.go NewACL ("Deny always takes precedence"); acl/acl_test.go TestACLMerge and TestMaxPrivilege; acl/acl.go maxPrivilege',
    rules: [{ bindType: 'role', bindName: 'developer' }, { bindType: 'policy', bindName: 'deny-default' }],
    claims: {},
    expect: { outcome: 'granted', roles: ['developer'], policies: ['deny-default'], namespaces: { default: ['deny'] }, node: 'deny', agent: 'read' },
  },
  {
    name: 'the scale shorthand joins written capabilities',
    source: 'acl/policy.go Parse (policy expanded and appended to capabilities) and expandNamespacePolicy (scale)',
    rules: [{ bindType: 'role', bindName: 'engineering' }],
    claims: {},
    expect: { outcome: 'granted', namespaces: { apps: ['list-scaling-policies', 'read-job', 'read-job-scaling', 'read-scaling-policy', 'scale-job', 'submit-job', 'submit-recommendation'] } },
  },
  {
    name: 'host-volume-register implies create and read',
    source: 'acl/policy.go expandNamespaceCapabilities',
    rules: [{ bindType: 'policy', bindName: 'host-volumes' }],
    claims: {},
    expect: { outcome: 'granted', namespaces: { apps: ['host-volume-create', 'host-volume-read', 'host-volume-register'] } },
  },
  {
    name: 'a role naming a missing policy still grants the others',
    source: 'nomad/auth/auth.go resolveACLFromToken ("Ignore policies that don\'t exist")',
    rules: [{ bindType: 'role', bindName: 'half-role' }],
    claims: {},
    expect: { outcome: 'granted', roles: ['half-role'], namespaces: { default: READ }, node: 'read' },
  },
];

/** The world of one case: a method named "corpus", its rules in order, the shared roles and policies. */
export function caseWorld(c: LoginCase): LoginWorld {
  return {
    method: {
      name: 'corpus',
      type: 'JWT',
      tokenLocality: 'local',
      maxTokenTtl: '1h',
      config: { ...(c.claimMappings ? { claimMappings: c.claimMappings } : {}), ...(c.listClaimMappings ? { listClaimMappings: c.listClaimMappings } : {}) },
    },
    rules: c.rules.map((r, i) => ({ label: `rule-${i}`, ...r })),
    roles: new Map(Object.entries(CORPUS_ROLES).map(([k, v]) => [k, { policies: v }])),
    policies: new Map(Object.entries(CORPUS_POLICIES).map(([k, v]) => [k, { rules: v }])),
  };
}
