import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI, runProcess } from '../e2e/harness.js';

/*
 * Regression: one manifest file of 10 000 documents (the fleet benchmark's shape) held every document's
 * position lists under construction until the whole file was read, so they were promoted to V8's old
 * space and `converge validate` needed more than a 64 MB old space for 25 MB of live data. Read a
 * document piece at a time (src/manifest/yaml-document-chunks.ts), it fits in 48 MB; 56 leaves a margin.
 */
const OLD_SPACE_MB = 56;
const DOCUMENTS = 10_000;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-10000-documents-'));
  const docs = Array.from(
    { length: DOCUMENTS },
    (_, w) => `kind: NoCodeWorkspace
name: ws-${String(w).padStart(4, '0')}
spec:
  module: svc${String(w % 50).padStart(2, '0')}
  description: bench workspace ${w}
  variables:
    - { key: region, value: ${w % 2 ? 'eu-west-1' : 'us-east-1'}, category: terraform }
    - { key: size, value: ${w % 3 ? 'small' : 'large'}, category: terraform }
    - { key: db_password, value: { fromEnv: FLEET_DB_PASSWORD }, category: terraform, sensitive: true }
`,
  );
  const modules = Array.from(
    { length: 50 },
    (_, m) => `kind: NoCodeModule
name: svc${String(m).padStart(2, '0')}
spec:
  registryModule: acme/svc${String(m).padStart(2, '0')}/aws
  versionPin: 1.1.0
  enabled: true
  variableOptions:
    - { variableName: region, variableType: string, options: [eu-west-1, us-east-1] }
    - { variableName: size, variableType: string, options: [small, large] }
`,
  );
  await writeFile(join(dir, 'tfe.yaml'), [...modules, ...docs].join('---\n'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it(`validate reads one file of ${DOCUMENTS} documents within a ${OLD_SPACE_MB} MB old space`, async () => {
  const r = await runProcess(process.execPath, [`--max-old-space-size=${OLD_SPACE_MB}`, CLI, 'validate'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir } });
  expect(r.stderr).not.toMatch(/heap out of memory/);
  expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
  expect(r.stdout).toContain(`${DOCUMENTS + 50} documents`);
}, 60_000);
