/*
 * Policy rules with the verdict real Nomad gives each when a policy is written (acl.Parse in strict mode,
 * hashicorp/nomad acl/policy.go, the version in docs/reference/nomad-acl-policies.md). Each case names
 * where the verdict comes from: a case of Nomad's own tests (acl/policy_test.go, TestParse cases are
 * numbered as its subtests, `%02d`), or a line of acl/policy.go or of HCL 1 (hashicorp/hcl v1) read for
 * it. The offline checker and the sandbox are both held to this table
 * (test/kinds/nomad-acl-policy-nomad-verdicts.test.ts); neither may refuse what Nomad accepts.
 */

export interface NomadVerdict {
  name: string;
  rules: string;
  verdict: 'accept' | 'refuse';
  /** Part of Nomad's error text, where its test names one. */
  nomadError?: string;
  /** Where the verdict comes from in hashicorp/nomad or hashicorp/hcl (v1). */
  source: string;
  /** Why the sandbox refuses with other words than Nomad's (the verdict is still held). */
  sandboxWords?: string;
}

export const NOMAD_VERDICTS: NomadVerdict[] = [
  {
    name: "TestParse 00",
    rules: String.raw`
			namespace "default" {
				policy = "read"
			}
			`,
    verdict: 'accept',
    source: 'acl/policy_test.go TestParse/00',
  },
  {
    name: "TestParse 01",
    rules: String.raw`
			namespace "default" {
				policy = "read"
			}
			namespace "other" {
				policy = "write"
			}
			namespace "secret" {
				capabilities = ["deny", "read-logs"]
			}
			namespace "apps" {
				variables {
					path "jobs/write-does-not-imply-read-or-delete" {
						capabilities = ["write"]
					}
					path "project/read-implies-list" {
						capabilities = ["read"]
					}
					path "project/explicit" {
						capabilities = ["read", "list", "destroy"]
					}
				}
			}
			namespace "autoscaler" {
				policy = "scale"
			}
			host_volume "production-tls-*" {
				capabilities = ["mount-readonly"]
			}
			host_volume "staging-tls-*" {
				policy = "write"
			}
			node_pool "prod" {
				capabilities = ["read"]
			}
			node_pool "dev" {
				policy = "write"
			}
			agent {
				policy = "read"
			}
			node {
				policy = "write"
			}
			operator {
				policy = "deny"
			}
			sentinel {
				policy = "read"
				capabilities = ["sentinel-delete"]
			}
			quota {
				policy = "read"
			}
			plugin {
				policy = "read"
			}
			`,
    verdict: 'accept',
    source: 'acl/policy_test.go TestParse/01',
  },
  {
    name: "TestParse 02",
    rules: String.raw`
			{
				"namespace": [
					{
						"default": {
							"policy": "read"
						},
					},
					{
						"other": {
							"policy": "write"
						},
					},
					{
						"secret": {
							"capabilities": [
								"deny",
								"read-logs"
							]
						}
					},
					{
						"apps": {
							"variables": [
								{
									"path": [
										{
											"jobs/write-does-not-imply-read-or-delete": {
												"capabilities": ["write"],
											},
										},
										{
											"project/read-implies-list": {
												"capabilities": ["read"],
											},
										},
										{
											"project/explicit": {
												"capabilities": ["read", "list", "destroy"],
											},
										},
									],
								},
							],
						},
					},
					{
						"autoscaler": {
							"policy": "scale"
						},
					},
				],
				"host_volume": [
					{
						"production-tls-*": {
							"capabilities": ["mount-readonly"]
						}
					},
					{
						"staging-tls-*": {
							"policy": "write"
						}
					}
				],
				"node_pool": [
					{
						"prod": {
							"capabilities": ["read"]
						}
					},
					{
						"dev": {
							"policy": "write"
						}
					}
				],
				"agent": {
					"policy": "read"
				},
				"node": {
					"policy": "write"
				},
				"operator": {
					"policy": "deny"
				},
				"quota": {
					"policy": "read"
				},
				"plugin": {
					"policy": "read"
				}
			}`,
    verdict: 'accept',
    source: 'acl/policy_test.go TestParse/02',
  },
  {
    name: "TestParse 03: Invalid namespace policy",
    rules: String.raw`
			namespace "default" {
				policy = "foo"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid namespace policy",
    source: 'acl/policy_test.go TestParse/03',
  },
  {
    name: "TestParse 04: Invalid namespace name",
    rules: String.raw`
			namespace {
				policy = "read"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid namespace name",
    source: 'acl/policy_test.go TestParse/04',
  },
  {
    name: "TestParse 05: Invalid namespace name",
    rules: String.raw`
			{
				"namespace": [
					{
						"": {
							"policy": "read"
						}
					}
				]
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid namespace name",
    source: 'acl/policy_test.go TestParse/05',
  },
  {
    name: "TestParse 06: Invalid variable policy: no variable paths in namespace dev",
    rules: String.raw`
			namespace "dev" {
			  variables "*" {
			      capabilities = ["read", "write"]
			  }
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid variable policy: no variable paths in namespace dev",
    source: 'acl/policy_test.go TestParse/06',
  },
  {
    name: "TestParse 07: Invalid variable path \"/nomad/job\" in namespace dev: cannot start with a leading '/'",
    rules: String.raw`
			namespace "dev" {
			  variables {
                path "/nomad/job" {
			      capabilities = ["read", "write"]
                }
			  }
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid variable path \"/nomad/job\" in namespace dev: cannot start with a leading '/'",
    source: 'acl/policy_test.go TestParse/07',
  },
  {
    name: "TestParse 08: Invalid missing variable path in namespace",
    rules: String.raw`
			namespace "dev" {
				policy = "read"

				variables {
					path {}
					path "nomad/jobs/example" {
						capabilities = ["read"]
					}
				}
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid missing variable path in namespace",
    source: 'acl/policy_test.go TestParse/08',
  },
  {
    name: "TestParse 09: no variable paths in namespace dev",
    rules: String.raw`
			{
				"namespace": [
					{
						"dev": {
							"policy": "read",
							"variables": [
								{
									"paths": [
										{
											"": {
												"capabilities": ["read"]
											}
										}
									]
								]
							]
						}
					}
				]
			}
			`,
    verdict: 'refuse',
    nomadError: "no variable paths in namespace dev",
    source: 'acl/policy_test.go TestParse/09',
    sandboxWords: 'its JSON closes an object with ]; HCL 1\'s JSON parser lets that pass, the sandbox refuses it as a syntax error',
  },
  {
    name: "TestParse 10: Invalid namespace capability",
    rules: String.raw`
			namespace "default" {
				capabilities = ["deny", "foo"]
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid namespace capability",
    source: 'acl/policy_test.go TestParse/10',
  },
  {
    name: "TestParse 11: invalid acl policy",
    rules: String.raw`namespace {}`,
    verdict: 'refuse',
    nomadError: "invalid acl policy",
    source: 'acl/policy_test.go TestParse/11',
    sandboxWords: 'Nomad\'s HCL 1 decoder panics on it (acl/policy.go hclDecode recovers); the sandbox says Invalid namespace name',
  },
  {
    name: "TestParse 12: Invalid agent policy",
    rules: String.raw`
			agent {
				policy = "foo"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid agent policy",
    source: 'acl/policy_test.go TestParse/12',
  },
  {
    name: "TestParse 13: Invalid node policy",
    rules: String.raw`
			node {
				policy = "foo"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid node policy",
    source: 'acl/policy_test.go TestParse/13',
  },
  {
    name: "TestParse 14: Invalid operator policy",
    rules: String.raw`
			operator {
				policy = "foo"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid operator policy",
    source: 'acl/policy_test.go TestParse/14',
  },
  {
    name: "TestParse 15: Invalid quota policy",
    rules: String.raw`
			quota {
				policy = "foo"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid quota policy",
    source: 'acl/policy_test.go TestParse/15',
  },
  {
    name: "TestParse 16: Invalid policy",
    rules: String.raw`
			{
				"Name": "my-policy",
				"Description": "This is a great policy",
				"Rules": "anything"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid policy",
    source: 'acl/policy_test.go TestParse/16',
  },
  {
    name: "TestParse 17: Invalid namespace name",
    rules: String.raw`
			namespace "has a space"{
				policy = "read"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid namespace name",
    source: 'acl/policy_test.go TestParse/17',
  },
  {
    name: "TestParse 18",
    rules: String.raw`
			namespace "default" {
				capabilities = ["sentinel-override"]
			}
			`,
    verdict: 'accept',
    source: 'acl/policy_test.go TestParse/18',
  },
  {
    name: "TestParse 19",
    rules: String.raw`
			namespace "default" {
				capabilities = ["host-volume-register"]
			}

			namespace "other" {
				capabilities = ["host-volume-create"]
			}

			namespace "foo" {
				capabilities = ["host-volume-write"]
			}
			`,
    verdict: 'accept',
    source: 'acl/policy_test.go TestParse/19',
  },
  {
    name: "TestParse 20",
    rules: String.raw`
			node_pool "pool-read-only" {
				policy = "read"
			}

			node_pool "pool-read-write" {
				policy = "write"
			}

			node_pool "pool-read-upsert" {
				policy = "read"
				capabilities = ["write"]
			}

			node_pool "pool-multiple-capabilities" {
				policy = "read"
				capabilities = ["write", "delete"]
			}

			node_pool "pool-deny-policy" {
				policy = "deny"
				capabilities = ["write"]
			}

			node_pool "pool-deny-capability" {
				capabilities = ["deny", "read"]
			}

			node_pool "pool-*" {
				policy = "read"
			}
			`,
    verdict: 'accept',
    source: 'acl/policy_test.go TestParse/20',
  },
  {
    name: "TestParse 21: Invalid node pool name",
    rules: String.raw`
			node_pool "" {
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid node pool name",
    source: 'acl/policy_test.go TestParse/21',
  },
  {
    name: "TestParse 22: Invalid node pool name",
    rules: String.raw`
			node_pool "pool%" {
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid node pool name",
    source: 'acl/policy_test.go TestParse/22',
  },
  {
    name: "TestParse 23: Invalid node pool capability",
    rules: String.raw`
			node_pool "my-pool" {
				capabilities = ["read", "invalid"]
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid node pool capability",
    source: 'acl/policy_test.go TestParse/23',
  },
  {
    name: "TestParse 24: Invalid node pool name",
    rules: String.raw`
			node_pool {
				policy = "read"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid node pool name",
    source: 'acl/policy_test.go TestParse/24',
  },
  {
    name: "TestParse 25: Invalid node pool name",
    rules: String.raw`
			{
				"node_pool": [
					{
						"": {
							"policy": "read"
						}
					}
				]
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid node pool name",
    source: 'acl/policy_test.go TestParse/25',
  },
  {
    name: "TestParse 26",
    rules: String.raw`
			host_volume "production-tls-*" {
				capabilities = ["mount-readonly"]
			}
			`,
    verdict: 'accept',
    source: 'acl/policy_test.go TestParse/26',
  },
  {
    name: "TestParse 27",
    rules: String.raw`
			host_volume "production-tls-*" {
				capabilities = ["mount-readwrite"]
			}
			`,
    verdict: 'accept',
    source: 'acl/policy_test.go TestParse/27',
  },
  {
    name: "TestParse 28: Invalid host volume name",
    rules: String.raw`
			host_volume "volume has a space" {
				capabilities = ["mount-readwrite"]
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid host volume name",
    source: 'acl/policy_test.go TestParse/28',
  },
  {
    name: "TestParse 29: Invalid host volume name",
    rules: String.raw`
			host_volume {
				policy = "read"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid host volume name",
    source: 'acl/policy_test.go TestParse/29',
  },
  {
    name: "TestParse 30: Invalid host volume name",
    rules: String.raw`
			{
				"host_volume": [
					{
						"": {
							"policy": "read"
						}
					}
				]
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid host volume name",
    source: 'acl/policy_test.go TestParse/30',
  },
  {
    name: "TestParse 31",
    rules: String.raw`
			plugin {
				policy = "list"
			}
			`,
    verdict: 'accept',
    source: 'acl/policy_test.go TestParse/31',
  },
  {
    name: "TestParse 32: Invalid plugin policy",
    rules: String.raw`
			plugin {
				policy = "reader"
			}
			`,
    verdict: 'refuse',
    nomadError: "Invalid plugin policy",
    source: 'acl/policy_test.go TestParse/32',
  },
  {
    name: "TestParse 33: Invalid sentinel policy",
    rules: String.raw`sentinel {	policy = "invalid" }`,
    verdict: 'refuse',
    nomadError: "Invalid sentinel policy",
    source: 'acl/policy_test.go TestParse/33',
  },
  {
    name: "TestParse 34: Invalid sentinel capability",
    rules: String.raw`sentinel { capabilities = ["invalid-capability"] }`,
    verdict: 'refuse',
    nomadError: "Invalid sentinel capability",
    source: 'acl/policy_test.go TestParse/34',
  },
  {
    name: 'TestParse_BadInput: an octal escape above \\377',
    rules: String.raw`namespace "\500" {}`,
    verdict: 'refuse',
    source: 'acl/policy_test.go TestParse_BadInput; hcl/strconv/quote.go unquoteChar (v > 255)',
  },
  {
    name: 'TestParse_ExtraKeys: unknown and duplicated top-level blocks',
    rules: String.raw`

namespace "foo" {
  policy = "write"
  variables {
    path "project/*" {
      capabilities = ["read", "write"]
    }
  }
}
namespace "bar" {
  policy = "write"
  variables {
    path "system/*" {
      capabilities = ["read", "write"]
    }
  }
}

bogus {
  policy = "read"
}
anotherbogus {
  policy = "write"
}

node {
  policy = "read"
}
node {
  policy = "write"
}

agent {
  policy = "read"
}
agent {
  policy = "write"
}

operator {
  policy = "read"
}
operator {
  policy = "write"
}

quota {
  policy = "read"
}
quota {
  policy = "write"
}

host_volume "volume-read-only" {
  policy = "read"
}
host_volume "volume-read-write" {
  policy = "write"
}

plugin {
  policy = "read"
}
plugin {
  policy = "write"
}

node_pool "pool-read-only" {
  policy = "read"
}
node_pool "pool-read-write" {
  policy = "write"
}
`,
    verdict: 'refuse',
    nomadError: 'Invalid or duplicate policy keys: agent, anotherbogus, bogus, node, operator, plugin, quota',
    source: 'acl/policy_test.go TestParse_ExtraKeys (strict)',
  },
  // Read from acl/policy.go Parse: a namespace, node pool, host volume, operator or sentinel policy is
  // checked only when it is not empty (`if ns.Policy != "" && !isPolicyValid(...)`), so capabilities alone do.
  {
    name: 'empty rules (the hot path)',
    rules: '',
    verdict: 'accept',
    source: 'acl/policy.go Parse (`if rules == ""`)',
  },
  {
    name: 'namespace: policy = "" with capabilities',
    rules: 'namespace "default" {\n  policy       = ""\n  capabilities = ["read-job"]\n}\n',
    verdict: 'accept',
    source: 'acl/policy.go Parse (`ns.Policy != "" && !isPolicyValid`)',
  },
  {
    name: 'node_pool: policy = ""',
    rules: 'node_pool "prod" {\n  policy       = ""\n  capabilities = ["read"]\n}\n',
    verdict: 'accept',
    source: 'acl/policy.go Parse (`np.Policy != "" && !isPolicyValid`)',
  },
  {
    name: 'host_volume: policy = ""',
    rules: 'host_volume "certs" {\n  policy       = ""\n  capabilities = ["mount-readonly"]\n}\n',
    verdict: 'accept',
    source: 'acl/policy.go Parse (`hv.Policy != "" && !isPolicyValid`)',
  },
  {
    name: 'operator: policy = "" with capabilities',
    rules: 'operator {\n  policy       = ""\n  capabilities = ["snapshot-save"]\n}\n',
    verdict: 'accept',
    source: 'acl/policy.go Parse (`p.Operator.Policy != "" && !isPolicyValid`)',
  },
  {
    name: 'sentinel: policy = ""',
    rules: 'sentinel {\n  policy = ""\n  capabilities = ["sentinel-read"]\n}\n',
    verdict: 'accept',
    source: 'acl/policy.go Parse (`p.Sentinel.Policy != "" && !isPolicyValid`)',
  },
  {
    name: 'agent: policy = "" (agent, node, quota and plugin need one)',
    rules: 'agent {\n  policy = ""\n}\n',
    verdict: 'refuse',
    nomadError: 'Invalid agent policy',
    source: 'acl/policy.go Parse (`p.Agent != nil && !isPolicyValid(p.Agent.Policy)`)',
  },
  {
    name: 'quota {} (no policy)',
    rules: 'quota {}',
    verdict: 'refuse',
    nomadError: 'Invalid quota policy',
    source: 'acl/policy.go Parse (`p.Quota != nil && !isPolicyValid(p.Quota.Policy)`)',
  },
  // HCL 1 string escapes: hcl/scanner/scanner.go scanEscape takes a b f n r t v \ " and octal, \x, \u, \U
  // digits; hcl/strconv/quote.go unquoteChar gives their values.
  {
    name: 'escapes \\x, octal, \\u and \\U spell a valid policy',
    rules: String.raw`namespace "default" { policy = "\x72ead" }` + '\n' + String.raw`node { policy = "\162ead" }` + '\n' + String.raw`agent { policy = "\u0072ead" }` + '\n' + String.raw`operator { policy = "\U00000072ead" }`,
    verdict: 'accept',
    source: 'hcl/scanner/scanner.go scanEscape; hcl/strconv/quote.go unquoteChar',
  },
  {
    name: 'escapes \\a \\b \\f \\v in a variable path',
    rules: String.raw`namespace "apps" { variables { path "a\ab\bc\fd\ve" { capabilities = ["read"] } } }`,
    verdict: 'accept',
    source: 'hcl/scanner/scanner.go scanEscape; acl/policy.go Parse (a path is refused only for a leading /)',
  },
  {
    name: 'an unknown escape',
    rules: String.raw`namespace "default" { policy = "re\qad" }`,
    verdict: 'refuse',
    source: 'hcl/scanner/scanner.go scanEscape (`illegal char escape`)',
  },
  {
    name: '\\x with one hex digit',
    rules: String.raw`namespace "default" { policy = "\x7" }`,
    verdict: 'refuse',
    source: 'hcl/scanner/scanner.go scanDigits (`illegal char escape`)',
  },
  {
    name: '\\U above U+10FFFF',
    rules: String.raw`namespace "default" { policy = "\U00110000" }`,
    verdict: 'refuse',
    source: 'hcl/strconv/quote.go unquoteChar (`v > utf8.MaxRune`)',
  },
  // HCL 1 grammar (hcl/parser/parser.go).
  {
    name: 'commas between top-level blocks',
    rules: 'node { policy = "read" }, agent { policy = "read" },',
    verdict: 'accept',
    source: 'hcl/parser/parser.go objectList (`a comma is allowed here`)',
  },
  {
    name: 'stray commas in a list',
    rules: 'namespace "default" { capabilities = [, "read-job",, "list-jobs",] }',
    verdict: 'accept',
    source: 'hcl/parser/parser.go listType (a COMMA resets needComma)',
  },
  {
    name: 'list items without a comma',
    rules: 'namespace "default" { capabilities = ["read-job" "list-jobs"] }',
    verdict: 'refuse',
    source: 'hcl/parser/parser.go listType (`expected comma or list end`)',
  },
  {
    name: 'a hex number where a string is expected is its text, not a policy',
    rules: 'node { policy = 0x1F }',
    verdict: 'refuse',
    nomadError: 'Invalid node policy',
    source: 'hcl/scanner/scanner.go scanNumber; acl/policy.go isPolicyValid',
  },
  {
    name: 'unknown keys inside a block, nested 40 deep, are ignored',
    rules: `namespace "default" {\n  policy = "read"\n  ${'x { '.repeat(40)}${'} '.repeat(40)}\n}\n`,
    verdict: 'accept',
    source: 'acl/policy.go Policy (only the root has `hcl:",unusedKeys"`; NamespacePolicy has none)',
  },
  // JSON rules go through the same acl.Parse (hcl.Decode reads text starting with `{` as JSON).
  {
    name: 'JSON: {} holds no policy',
    rules: '{}',
    verdict: 'refuse',
    nomadError: 'Invalid policy',
    source: 'acl/policy.go Parse (`p.IsEmpty()`)',
  },
  {
    name: 'JSON: an unknown top-level key',
    rules: '{"namespace": {"default": {"policy": "read"}}, "bogus": {"policy": "read"}}',
    verdict: 'refuse',
    nomadError: 'Invalid or duplicate policy keys: bogus',
    source: 'acl/policy.go Parse (ExtraKeysHCL, strict)',
  },
  {
    name: 'JSON: a bad policy value',
    rules: '{"namespace": {"default": {"policy": "writ"}}}',
    verdict: 'refuse',
    nomadError: 'Invalid namespace policy',
    source: 'acl/policy.go Parse (isPolicyValid)',
  },
  {
    name: 'JSON: a bad capability in a variables path',
    rules: '{"namespace": {"apps": {"variables": {"path": {"a/*": {"capabilities": ["reed"]}}}}}}',
    verdict: 'refuse',
    nomadError: 'Invalid variable capability',
    source: 'acl/policy.go Parse (isPathCapabilityValid)',
  },
  {
    name: 'JSON: policy "" with capabilities',
    rules: '{"node_pool": {"prod": {"policy": "", "capabilities": ["read"]}}}',
    verdict: 'accept',
    source: 'acl/policy.go Parse (`np.Policy != "" && !isPolicyValid`)',
  },
];
