import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CI_DIR = join(REPO, 'examples', 'ci');
export const WORKFLOW_DIR = join(CI_DIR, 'github-actions');
export const NOMAD_JOB = join(CI_DIR, 'nomad', 'drift.nomad.hcl');

/** In the order a change goes through CI: plan on the PR, apply on merge, drift on schedule. */
export const WORKFLOW_ORDER = ['plan.yml', 'apply.yml', 'drift.yml'];

/** The workflows for manifests with environments (examples/environments/), plan then apply; run on their own. */
export const ENVIRONMENT_WORKFLOWS = ['plan-environments.yml', 'apply-environments.yml'];

export function workflowFiles(): string[] {
  const files = readdirSync(WORKFLOW_DIR).filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'));
  const rank = (f: string) => {
    const i = WORKFLOW_ORDER.indexOf(f);
    return i === -1 ? WORKFLOW_ORDER.length : i;
  };
  return files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export interface Step {
  name?: string;
  id?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

export interface Workflow {
  name?: string;
  on: unknown;
  permissions?: Record<string, string>;
  jobs: Record<string, { 'runs-on'?: string; env?: Record<string, string>; strategy?: { matrix?: Record<string, unknown> }; steps: Step[] }>;
}

export function loadWorkflow(file: string): Workflow {
  return parse(readFileSync(join(WORKFLOW_DIR, file), 'utf8')) as Workflow;
}

/**
 * `converge …` invocations in shell text: `npx converge plan --out plan.json > plan.md` gives
 * ['plan', '--out', 'plan.json']. The command ends at a redirection, pipe, `;`, `&&`, `||` or quote.
 */
export function convergeCommands(shell: string): string[][] {
  const out: string[][] = [];
  for (const line of shell.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('#')) continue;
    // Command position only (line start, after ; && || | $( or npx), so prose such as
    // `echo "no converge plan run"` is not taken for a command.
    const re = /(?:^|[;&|(]\s*|\bnpx\s+(?:--no-install\s+)?)converge((?:\s+[^\s;&|<>"'`)]+)+)/g;
    for (let m = re.exec(trimmed); m; m = re.exec(trimmed)) {
      const args = (m[1] ?? '').trim().split(/\s+/).filter(Boolean);
      if (args.length > 0) out.push(args);
    }
  }
  return out;
}

/** Every converge command of every workflow but the environments' ones, in workflow order, with where it came from. */
export function workflowCommands(): { file: string; step: string; args: string[] }[] {
  const out: { file: string; step: string; args: string[] }[] = [];
  for (const file of workflowFiles().filter((f) => !ENVIRONMENT_WORKFLOWS.includes(f))) {
    const wf = loadWorkflow(file);
    for (const job of Object.values(wf.jobs)) {
      for (const step of job.steps) {
        if (typeof step.run !== 'string') continue;
        for (const args of convergeCommands(step.run)) out.push({ file, step: step.name ?? step.id ?? step.run, args });
      }
    }
  }
  return out;
}

/** converge commands in the Nomad job (its shell script lives in a template heredoc). */
export function nomadJobCommands(): string[][] {
  return convergeCommands(readFileSync(NOMAD_JOB, 'utf8'));
}

/**
 * The converge commands of the environments' workflows, as CI runs them: plan, then apply; jobs in file order
 * (the apply jobs' `needs` chain dev → staging → prod follows it); a job with a matrix of environments once per
 * environment, in matrix order, its `$CONVERGE_ENV` replaced by the environment's name.
 */
export function environmentWorkflowCommands(): { file: string; step: string; args: string[] }[] {
  const out: { file: string; step: string; args: string[] }[] = [];
  for (const file of ENVIRONMENT_WORKFLOWS) {
    for (const job of Object.values(loadWorkflow(file).jobs)) {
      const matrix = job.strategy?.matrix?.environment;
      const environments = Array.isArray(matrix) ? matrix.map(String) : [undefined];
      for (const env of environments) {
        for (const step of job.steps) {
          if (typeof step.run !== 'string') continue;
          for (const args of convergeCommands(step.run)) {
            out.push({ file, step: `${step.name ?? step.run}${env ? ` [${env}]` : ''}`, args: args.map((a) => (env ? a.replaceAll('$CONVERGE_ENV', env) : a)) });
          }
        }
      }
    }
  }
  return out;
}
