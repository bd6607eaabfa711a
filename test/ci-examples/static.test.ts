import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument, visit } from 'yaml';
import { checkHclBalance, hclAttributes, hclBlocks } from './hcl-balance.js';
import { convergeCommands, loadWorkflow, NOMAD_JOB, nomadJobCommands, WORKFLOW_DIR, workflowCommands, workflowFiles } from './extract.js';
import { join } from 'node:path';

describe('GitHub Actions examples', () => {
  it('has the plan, apply and drift workflows', () => {
    expect(workflowFiles()).toEqual(expect.arrayContaining(['plan.yml', 'apply.yml', 'drift.yml']));
  });

  for (const file of workflowFiles()) {
    describe(file, () => {
      it('is valid YAML with on, jobs, and steps that each run or use something', () => {
        const doc = parseDocument(readFileSync(join(WORKFLOW_DIR, file), 'utf8'));
        expect(doc.errors).toEqual([]);
        const wf = loadWorkflow(file);
        expect(wf.on).toBeDefined();
        expect(Object.keys(wf.jobs).length).toBeGreaterThan(0);
        for (const [name, job] of Object.entries(wf.jobs)) {
          expect(job['runs-on'], `job ${name}`).toBeTruthy();
          expect(Array.isArray(job.steps), `job ${name} steps`).toBe(true);
          for (const step of job.steps) {
            const hasOne = (typeof step.run === 'string') !== (typeof step.uses === 'string');
            expect(hasOne, `${file} step ${JSON.stringify(step.name ?? step)} needs exactly one of run/uses`).toBe(true);
          }
        }
      });

      it('takes secrets only as environment variables, never as arguments or inputs', () => {
        const doc = parseDocument(readFileSync(join(WORKFLOW_DIR, file), 'utf8'));
        const misplaced: string[] = [];
        visit(doc, {
          Pair(_key, pair, path) {
            if (!isScalar(pair.value) || typeof pair.value.value !== 'string' || !pair.value.value.includes('secrets.')) return;
            const parent = path[path.length - 2];
            const parentKey = isMap(path[path.length - 1]) && parent && !isSeq(parent) && 'key' in parent && isScalar(parent.key) ? parent.key.value : undefined;
            if (parentKey !== 'env') misplaced.push(`${String(isScalar(pair.key) ? pair.key.value : pair.key)} under ${String(parentKey)}`);
          },
        });
        expect(misplaced).toEqual([]);
        const text = readFileSync(join(WORKFLOW_DIR, file), 'utf8');
        expect(text).not.toMatch(/--token|NOMAD_TOKEN=\$|converge[^\n]*\$\{\{\s*secrets/);
      });
    });
  }

  it('plan.yml plans on pull requests with a detailed exit code, one marked comment and an artifact', () => {
    const wf = loadWorkflow('plan.yml');
    expect(wf.on).toHaveProperty('pull_request');
    const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
    const cmds = steps.flatMap((s) => (s.run ? convergeCommands(s.run) : []));
    expect(cmds).toContainEqual(['validate']);
    const plan = cmds.find((c) => c[0] === 'plan');
    expect(plan).toEqual(expect.arrayContaining(['--markdown', '--detailed-exitcode', '--out', 'plan.json']));
    expect(steps.some((s) => s.uses?.startsWith('actions/upload-artifact'))).toBe(true);
    const script = steps.map((s) => String(s.with?.script ?? '')).join('\n');
    expect(script).toContain('<!-- converge-plan -->');
    expect(script).toMatch(/updateComment/);
    expect(wf.permissions?.['pull-requests']).toBe('write');
  });

  it('apply.yml applies the reviewed plan on push to main and never auto-approves', () => {
    const wf = loadWorkflow('apply.yml');
    expect(wf.on).toMatchObject({ push: { branches: ['main'] } });
    const cmds = Object.values(wf.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? convergeCommands(s.run) : [])));
    const apply = cmds.find((c) => c[0] === 'apply');
    expect(apply).toEqual(expect.arrayContaining(['--plan', 'plan.json']));
    expect(cmds.flat()).not.toContain('--auto-approve');
  });

  it('drift.yml runs on a schedule and opens or closes one labelled issue', () => {
    const wf = loadWorkflow('drift.yml');
    expect(wf.on).toHaveProperty('schedule');
    const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
    expect(steps.flatMap((s) => (s.run ? convergeCommands(s.run) : []))).toContainEqual(['drift', '--markdown']);
    const opener = steps.find((s) => s.if?.includes("exitcode == '2'"));
    const closer = steps.find((s) => s.if?.includes("exitcode == '0'"));
    expect(String(opener?.with?.script)).toContain('converge-drift');
    expect(String(closer?.with?.script)).toMatch(/state: 'closed'/);
  });

  it('finds every converge command in the workflows', () => {
    expect(workflowCommands().map((c) => c.args[0])).toEqual(['validate', 'doctor', 'plan', 'apply', 'drift']);
  });
});

describe('Nomad periodic job example', () => {
  const text = readFileSync(NOMAD_JOB, 'utf8');

  it('has balanced braces, brackets, strings and heredocs', () => {
    expect(checkHclBalance(text)).toEqual([]);
  });

  it('is a periodic batch job that never overlaps', () => {
    const blocks = hclBlocks(text);
    for (const b of ['job', 'periodic', 'group', 'task', 'template', 'config']) expect(blocks.has(b), b).toBe(true);
    const attrs = hclAttributes(text);
    expect(attrs.get('type')).toBe('"batch"');
    expect(attrs.get('prohibit_overlap')).toBe('true');
    expect(attrs.get('crons') ?? attrs.get('cron')).toBeTruthy();
    expect(attrs.get('driver')).toMatch(/"(docker|exec)"/);
  });

  it('reads NOMAD_TOKEN from a Nomad Variable through a template, not from the job spec', () => {
    expect(text).toMatch(/nomadVar "nomad\/jobs\/converge-drift"/);
    expect(text).toMatch(/NOMAD_TOKEN=\{\{ \.nomad_token \}\}/);
    expect(text).toMatch(/env\s*=\s*true/);
    expect(text).not.toMatch(/NOMAD_TOKEN\s*=\s*"/);
  });

  it('runs converge drift', () => {
    expect(nomadJobCommands()).toEqual([['drift', '--markdown']]);
  });

  it('the checker catches broken files (regression guard for the checker itself)', () => {
    expect(checkHclBalance('job "x" {\n  group "g" {\n}')).toEqual(['line 1: { never closed']);
    expect(checkHclBalance('a = "unterminated\n')).toEqual(['line 1: unterminated string']);
    expect(checkHclBalance('x = <<EOT\n{{\n')).toEqual(['line 1: heredoc <<EOT never ends']);
    expect(checkHclBalance('x = [1, 2}')).toEqual(['line 1: } closes [ opened on line 1']);
    expect(checkHclBalance('x = "a # not a comment {"\ny = { # }\n}')).toEqual([]);
  });
});
