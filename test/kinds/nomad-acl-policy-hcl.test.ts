import { describe, expect, it } from 'vitest';
import { checkPolicyHcl, normalizePolicyHcl } from '../../src/kinds/nomad-acl-policy/policy-hcl.js';
import { NOMAD_VERDICTS } from './nomad-acl-policy/nomad-verdicts.js';

/** `line:col-endLine:endCol summary` per problem: position and words in one readable string. */
const problems = (rules: string): string[] => checkPolicyHcl(rules).map((p) => `${p.line}:${p.col}-${p.endLine}:${p.endCol} ${p.summary}`);

// The example policy of Nomad's ACL policy specification (developer.hashicorp.com/nomad/docs/other-specifications/acl-policy).
const SPEC_EXAMPLE = `# this is a namespace rule for the "foo" namespace
namespace "foo" {
  policy = "write" # this is a policy field
  capabilities = ["alloc-exec"] # this is a capabilities list

  # this block controls access to variables in this namespace
  variables {
    path "project/*" {
      capabilities = ["read", "write"]
    }
  }
}

# this is a namespace rule, with a wildcard label
namespace "*" {
  policy = "read"
}

node {
  policy = "read"
}

agent {
  policy = "read"
}

operator {
  policy = "read"
}

quota {
  policy = "read"
}

# this is a host_volume rule, with a wildcard label
host_volume "*" {
  policy = "read"
}

plugin {
  policy = "read"
}
`;

// The all-blocks policy of acl/policy_test.go TestParse (valid there).
const NOMAD_TEST_POLICY = NOMAD_VERDICTS.find((c) => c.source === 'acl/policy_test.go TestParse/01')?.rules ?? '';

describe('checkPolicyHcl: valid policies', () => {
  it.each([
    ['the specification example', SPEC_EXAMPLE],
    ['the all-blocks policy of Nomad\'s parser test', NOMAD_TEST_POLICY],
    ['the manifest example', 'namespace "*" { policy = "write" }\nnode { policy = "read" }\n'],
    ['the variables tutorial policy', 'namespace "*" {\n  policy = "read"\n  variables {\n    path "*" {\n      capabilities = ["read", "list"]\n    }\n  }\n}\n'],
    ['one line, comma separated, /* */ and // comments', '/* ops */ namespace "default" { policy = "read", capabilities = ["submit-job",] } // end\n'],
    ['empty rules (Nomad accepts a policy without rules)', ''],
    ['JSON rules', '{"namespace": {"default": {"policy": "read"}}}'],
  ])('accepts %s', (_name, rules) => {
    expect(checkPolicyHcl(rules)).toEqual([]);
  });
});

describe('checkPolicyHcl: syntax errors point at the cause', () => {
  it('an unclosed block points at its {', () => {
    expect(problems('namespace "default" {\n  policy = "read"\n')).toEqual(['1:21-1:22 Unclosed {']);
  });

  it('a stray } is reported where it stands', () => {
    expect(problems('node { policy = "read" }\n}\n')).toEqual(['2:1-2:2 Unexpected }']);
  });

  it('an unterminated string spans to the end of its line', () => {
    const [p] = checkPolicyHcl('namespace "default" {\n  policy = "read\n}\n');
    expect(p).toMatchObject({ line: 2, col: 12, endLine: 2, endCol: 17, summary: 'Unterminated string' });
    expect(p?.detail).toContain('Close the string');
  });

  it('a missing = names the attribute and shows both forms', () => {
    const [p] = checkPolicyHcl('node {\n  policy "read"\n}\n');
    expect(`${p?.line}:${p?.col} ${p?.summary}`).toBe('3:1 Expected "=" or "{" after policy "read", found }');
    expect(p?.detail).toContain('policy = "value"');
  });

  it('a missing value after =', () => {
    expect(problems('node { policy = }')).toEqual(['1:17-1:18 Missing value after policy =']);
  });

  it('a label followed by =', () => {
    expect(problems('namespace "default" = { policy = "read" }')).toEqual(['1:21-1:22 A label cannot be followed by "=" (after namespace "default")']);
  });

  it('an unclosed list and an unknown character', () => {
    expect(problems('namespace "a" { capabilities = ["read-job" }')).toEqual(['1:44-1:45 Expected "," or "]" in the list, found }']);
    expect(problems('node { policy = @ }')).toEqual(['1:17-1:18 Unexpected character "@"']);
  });

  it('JSON that does not parse', () => {
    expect(problems('{"namespace": ')).toHaveLength(1);
  });
});

describe('checkPolicyHcl: grammar from acl/policy.go', () => {
  it('unknown blocks, with a suggestion', () => {
    expect(problems('nmespace "default" { policy = "read" }\nnode { policy = "read" }')).toEqual(['1:1-1:9 Unknown block "nmespace" (did you mean "namespace"?)']);
    expect(problems('node_pools "x" { policy = "read" }')).toEqual(['1:1-1:11 Unknown block "node_pools" (did you mean "node_pool"?)']);
  });

  it('unknown dispositions per block (plugin takes list, agent does not)', () => {
    expect(problems('namespace "default" { policy = "writ" }')).toEqual(['1:32-1:38 Unknown policy "writ" in the namespace block (did you mean "write"?)']);
    expect(problems('agent { policy = "list" }')).toEqual(['1:18-1:24 Unknown policy "list" in the agent block']);
    expect(problems('plugin { policy = "list" }')).toEqual([]);
    expect(problems('plugin { policy = "scale" }')).toEqual(['1:19-1:26 Unknown policy "scale" in the plugin block']);
  });

  it('unknown capabilities per block, each at its own position', () => {
    expect(problems('namespace "default" {\n  capabilities = ["submit-jobs", "read-logs", "alloc-exce"]\n}')).toEqual([
      '2:19-2:32 Unknown capability "submit-jobs" in the namespace block (did you mean "submit-job"?)',
      '2:47-2:59 Unknown capability "alloc-exce" in the namespace block (did you mean "alloc-exec"?)',
    ]);
    expect(problems('operator { capabilities = ["snapshot-load"] }')).toEqual(['1:28-1:43 Unknown capability "snapshot-load" in the operator block']);
    expect(problems('node_pool "prod" { capabilities = ["mount"] }')).toHaveLength(1);
    expect(problems('node { capabilities = ["read"] }')).toEqual(['1:8-1:20 Unknown attribute "capabilities" in the node block', '1:1-1:5 node block needs a policy']);
  });

  it('a misspelt attribute inside a block is a warning: Nomad ignores it silently', () => {
    const [p] = checkPolicyHcl('namespace "default" { capabilites = ["read-job"] }');
    expect(p?.summary).toBe('Unknown attribute "capabilites" in the namespace block (did you mean "capabilities"?)');
    expect(p?.severity).toBe('warning');
    expect(p?.detail).toContain('grants nothing');
  });

  it('keys in another case are what Nomad\'s HCL 1 decoder accepts: warnings, while values stay case-sensitive', () => {
    const ps = checkPolicyHcl('Namespace "default" { Policy = "read" }');
    expect(ps.map((p) => [p.severity, p.summary])).toEqual([
      ['warning', 'Write namespace in lower case'],
      ['warning', 'Write policy in lower case'],
    ]);
    expect(checkPolicyHcl('node { policy = "Read" }').map((p) => p.severity)).toEqual(['error']);
  });

  it('what Nomad refuses is an error', () => {
    const rules = 'nmespace "x" {}\nnode { policy = "x" }\nquota {}\nnamespace "a" { capabilities = ["x"] }\nagent "y" { policy = "read" }';
    expect(checkPolicyHcl(rules).every((p) => p.severity === 'error')).toBe(true);
  });

  it('variables: at least one path, no leading /, path capabilities', () => {
    expect(problems('namespace "dev" {\n  variables "*" {\n    capabilities = ["read"]\n  }\n}')).toEqual([
      '2:13-2:16 variables block takes no name',
      '3:5-3:17 Unknown attribute "capabilities" in the variables block',
      '2:3-2:12 variables block needs at least one path',
    ]);
    expect(problems('namespace "dev" { variables { path "/nomad/job" { capabilities = ["read"] } } }')).toEqual(['1:36-1:48 Variable path "/nomad/job" cannot start with "/"']);
    expect(problems('namespace "dev" { variables { path { capabilities = ["read"] } } }')).toEqual(['1:31-1:35 path needs a variable path']);
    expect(problems('namespace "dev" { variables { path "a/*" { capabilities = ["reed"] } } }')).toEqual(['1:60-1:66 Unknown capability "reed" in the variables path block (did you mean "read"?)']);
  });

  it('names and labels', () => {
    expect(problems('namespace { policy = "read" }')).toEqual(['1:1-1:10 namespace block needs a name']);
    expect(problems('namespace "has a space" { policy = "read" }')).toEqual(['1:11-1:24 Invalid namespace name "has a space"']);
    expect(problems('node_pool "pool_1" { policy = "read" }')).toEqual([]);
    expect(problems('host_volume "vol_1" { policy = "read" }')).toEqual(['1:13-1:20 Invalid host volume name "vol_1"']);
    expect(problems('agent "x" { policy = "read" }')).toEqual(['1:7-1:10 agent block takes no name']);
  });

  it('blocks that need a policy, duplicates, wrong shapes, and rules without blocks', () => {
    expect(problems('quota {}')).toEqual(['1:1-1:6 quota block needs a policy']);
    expect(problems('node { policy = "read" }\nnode { policy = "write" }')).toEqual(['2:1-2:5 Second node block']);
    expect(problems('agent = "read"')).toEqual(['1:1-1:6 agent must be a block']);
    expect(problems('node { policy = ["read"] }')).toEqual(['1:17-1:25 policy must be a string']);
    expect(problems('namespace "a" { capabilities = "read-job" }')).toEqual(['1:32-1:42 capabilities must be a list']);
    expect(problems('# only a comment\n')).toEqual(['1:1-1:2 The rules hold no policy block']);
  });

  it('a heredoc keeps its final newline, as in HCL 1, so it is no disposition', () => {
    expect(problems('node {\n  policy = <<EOF\nread\nEOF\n}\n')).toHaveLength(1);
  });

  it('every problem has a detail that says how to fix it', () => {
    for (const p of checkPolicyHcl('nmespace "x" {}\nnode { policy = "x" }\nquota {}\nnamespace "a" { capabilities = ["x"] }')) {
      expect(p.detail.length).toBeGreaterThan(10);
    }
  });
});

describe('normalizePolicyHcl', () => {
  it('equates CRLF, trailing spaces and missing or extra final newlines', () => {
    const written = 'namespace "*" { policy = "write" }   \r\nnode { policy = "read" }';
    const stored = 'namespace "*" { policy = "write" }\nnode { policy = "read" }\n\n';
    expect(normalizePolicyHcl(written)).toBe('namespace "*" { policy = "write" }\nnode { policy = "read" }\n');
    expect(normalizePolicyHcl(stored)).toBe(normalizePolicyHcl(written));
  });

  it('keeps indentation, inner blank lines and empty rules', () => {
    expect(normalizePolicyHcl('a {\n\n\t policy = "read"\t\n}\n')).toBe('a {\n\n\t policy = "read"\n}\n');
    expect(normalizePolicyHcl('')).toBe('');
    expect(normalizePolicyHcl(' \n\r\n')).toBe('');
  });
});
