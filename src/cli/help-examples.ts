import type { Command } from 'commander';

/*
 * The "Examples:" block at the end of every command's --help, as kubectl's help ends with one. Keyed by the
 * command's path (`state list`); '' is `converge --help` itself. test/cli/help-examples.test.ts checks that
 * every command has a block and that each example names the command and only flags it has.
 */
export const HELP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  '': [
    'converge validate                      # check the manifests in this directory offline',
    'converge plan --out plan.json          # review what would change, saved',
    'converge apply --plan plan.json        # apply exactly that plan',
  ],
  fmt: ['converge fmt', 'converge fmt --check examples/   # exit 1 when a file would change', 'converge fmt --diff nomad/auth-methods.yaml'],
  validate: ['converge validate', 'converge validate nomad/ tfe/vpc.yaml --json'],
  plan: [
    'converge plan',
    'converge plan --json > plan.json',
    'converge plan --out plan.json --detailed-exitcode   # exit 2 when there are changes',
    'converge plan --target NomadAuthMethod/okta --markdown',
    'converge plan --destroy --out destroy.json',
  ],
  show: ['converge show plan.json', 'converge show plan.json --markdown'],
  apply: [
    'converge apply                          # shows the plan, asks before sending',
    'converge apply --plan plan.json         # a reviewed plan, no question',
    'converge apply --auto-approve --json-stream > events.jsonl',
    'converge apply --target NoCodeWorkspace/vpc-dev --run-timeout 1h',
  ],
  destroy: [
    'converge plan --destroy --out destroy.json   # review, then: converge apply --plan destroy.json',
    'converge destroy --target NomadAuthMethod/okta',
    'converge destroy --deletion destroy --auto-approve',
  ],
  drift: ['converge drift                          # exit 2 on drift', 'converge drift --json', 'converge drift --region eu-west --markdown'],
  state: ['converge state list', 'converge state rm NomadAuthMethod/okta'],
  'state list': ['converge state list', 'converge state list --json'],
  'state show': ['converge state show NomadAuthMethod/okta'],
  'state rm': ['converge state rm NomadAuthMethod/okta', 'converge state rm NoCodeWorkspace/vpc-dev --keep-tag'],
  'state unlock': ['converge state unlock 4f6b2c1e-0d2a-4c3e-9a57-2e1f0b8c7d6a'],
  'state migrate': ['converge state migrate --to nomad', 'converge state migrate --to local --path .converge/state.json'],
  sandbox: ['converge sandbox', 'converge sandbox --port 0 --fault-rate 0.1 --random-seed 7', 'converge sandbox --seed seed.json --no-rate-limit'],
  demo: ['converge demo', 'converge demo --examples ./my-manifests'],
  doctor: ['converge doctor', 'converge doctor nomad/'],
  export: ['converge export', 'converge export --kind NomadAclPolicy --kind NomadAclRole', 'converge export --out manifests/ --organization acme'],
  import: ['converge import NomadAclRole/devs', 'converge import NoCodeWorkspace/vpc-dev tfe/'],
  login: ['converge login explain --method okta --claims claims.json'],
  'login explain': [
    'converge login explain --method okta --claims claims.json',
    'converge login explain --method okta --claims token.jwt --markdown',
    'converge login explain --method okta --claims claims.json --live --json',
  ],
};

/** The command's path as HELP_EXAMPLES keys it: its names under the program, `''` for the program. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Adds each command's examples after its help, for the program and every command under it. */
export function addHelpExamples(cmd: Command): void {
  const examples = HELP_EXAMPLES[commandPath(cmd)];
  if (examples !== undefined) cmd.addHelpText('after', `\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}\n`);
  for (const sub of cmd.commands) addHelpExamples(sub);
}
