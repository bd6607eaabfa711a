import { describe, expect, it } from 'vitest';
import { checkPolicyHcl } from '../../src/kinds/nomad-acl-policy/policy-hcl.js';
import { rulesSpanRange } from '../../src/kinds/nomad-acl-policy/rules-position.js';
import { parseYamlFile } from '../../src/manifest/yaml-tree.js';

/** Where the first problem of a policy's rules lands in the manifest, as `line:col`. */
function firstProblemAt(yaml: string): string {
  const doc = parseYamlFile(yaml, 'p.yaml').docs[0];
  if (!doc) throw new Error('no document');
  const rules = (doc.value as { spec: { rules: string } }).spec.rules;
  const value = doc.positions['/spec/rules'];
  const p = checkPolicyHcl(rules)[0];
  if (!value || !p) throw new Error('no rules or no problem');
  const r = rulesSpanRange(value, doc.scalarStyle['/spec/rules'], rules, p);
  return `${r.start.line}:${r.start.col}`;
}

describe('policy HCL problems land on the manifest line and column', () => {
  it('a literal block: the header line and the indentation are added', () => {
    expect(firstProblemAt('spec:\n  rules: |\n    node { policy = "read" }\n    agent { policy = "reed" }\n')).toBe('4:22');
  });

  it('deeper indentation, trailing blanks, a kept final newline and a blank line in between change nothing', () => {
    expect(firstProblemAt('spec:\n  rules: |+\n        node { policy = "read" }   \n\n        agent { policy = "reed" }  \n\n')).toBe('5:26');
    expect(firstProblemAt('spec:\n  rules: |-\n    agent { policy = "reed" }\n')).toBe('3:22');
  });

  it('one-line plain and quoted scalars shift by their start column (and the quote)', () => {
    expect(firstProblemAt('spec:\n  rules: agent { policy = "reed" }\n')).toBe('2:27');
    expect(firstProblemAt("spec:\n  rules: 'agent { policy = \"reed\" }'\n")).toBe('2:28');
  });

  it('a folded block (lines joined) falls back to the whole value', () => {
    expect(firstProblemAt('spec:\n  rules: >\n    agent {\n    policy = "reed" }\n')).toBe('2:10');
  });
});
