import { createHash, generateKeyPairSync, scryptSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applying, inStory, openStory, planning, type Story } from '../library/story.js';
import { SECRET_WORKSPACE, secretAuthMethods } from '../security/fixtures.js';

/*
 * Regression: state digests were one salted SHA-256 each. They are scrypt now, and a state
 * written before keeps working: a plan on it shows no change (each legacy digest still compares for its
 * value), and the next apply that writes the state rewrites every digest whose value it resolved.
 * The commands run in-process on the sandbox's clock; the legacy digests are made here the way the old code
 * made them.
 */

const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const VALUES = {
  okta: 'Mg58Lt2Qw-okta-secret',
  azure: 'Hv31Kp7Ns-azure-secret',
  db: 'Tc94Rb6Jx-db-password',
  api: 'Pq27Wd5Ez-api-key',
  // fromFile drops the file's trailing newline.
  pem: PEM.replace(/\n$/, ''),
};
const ENV = { OKTA_CLIENT_SECRET: VALUES.okta, VPC_DB_PASSWORD: VALUES.db };
const FAST = { pollInterval: '20ms' };

interface StateFile {
  salt: string;
  serial: number;
  records: { kind: string; name: string; secretDigests: Record<string, string> }[];
}

let ws: Story;
const statePath = () => join(ws.dir, '.converge', 'state.json');
const readState = async (): Promise<StateFile> => JSON.parse(await readFile(statePath(), 'utf8')) as StateFile;
const allDigests = (s: StateFile) => s.records.flatMap((r) => Object.values(r.secretDigests));

// Written from the issue, not from src/secrets: what the old code stored, and what the new one must.
const sha256Digest = (salt: string, value: string) => `sha256:${createHash('sha256').update(salt).update('\0').update(value).digest('hex')}`;
const scryptHex = (salt: string, value: string) => scryptSync(value, `converge secret digest v1\0${salt}`, 32, { N: 4096, r: 8, p: 1 }).toString('hex');

beforeAll(async () => {
  ws = await openStory({ env: ENV });
  await ws.write('settings.yaml', 'kind: Settings\nname: default\nspec:\n  tfe: { organization: acme }\n');
  await ws.write('auth.yaml', secretAuthMethods());
  await ws.write('tfe.yaml', SECRET_WORKSPACE);
  await ws.write('secrets/azure-secret.txt', VALUES.azure);
  await ws.write('secrets/api-key.txt', VALUES.api);
  await ws.write('secrets/signing-key.pem', PEM);
});

afterAll(async () => {
  await ws?.close();
});

describe('a state with legacy SHA-256 digests', () => {
  let fresh: StateFile;

  it('a first apply writes scrypt digests, none a SHA-256 of the value', async () => {
    const r = await inStory(ws, applying(FAST));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    fresh = await readState();
    const digests = allDigests(fresh);
    // okta, azure (secret + key), db_password, API_KEY.
    expect(digests).toHaveLength(5);
    for (const d of digests) expect(d).toMatch(/^scrypt:N=4096,r=8,p=1:[0-9a-f]{64}$/);
    const expected = new Set(Object.values(VALUES).map((v) => `scrypt:N=4096,r=8,p=1:${scryptHex(fresh.salt, v)}`));
    for (const d of digests) expect(expected.has(d), d).toBe(true);
  });

  it('plan shows no change on the same state written with SHA-256 digests, and leaves the file alone', async () => {
    const byDigest = new Map(Object.values(VALUES).map((v) => [`scrypt:N=4096,r=8,p=1:${scryptHex(fresh.salt, v)}`, v]));
    const old = {
      ...fresh,
      records: fresh.records.map((r) => ({
        ...r,
        secretDigests: Object.fromEntries(Object.entries(r.secretDigests).map(([path, d]) => [path, sha256Digest(fresh.salt, byDigest.get(d) ?? '')])),
      })),
    };
    const oldText = JSON.stringify(old, null, 2) + '\n';
    await writeFile(statePath(), oldText);
    const plan = await inStory(ws, planning({ detailedExitcode: true }));
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes');
    expect(await readFile(statePath(), 'utf8')).toBe(oldText);
  });

  it('a rotated secret on that state is the only change', async () => {
    const plan = await inStory(ws, planning({ detailedExitcode: true }), {}, { OKTA_CLIENT_SECRET: 'Yb83Fs1Lo-rotated' });
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/NomadAuthMethod\/okta/);
    expect(plan.stdout).not.toMatch(/NomadAuthMethod\/azure|NoCodeWorkspace\/vpc-dev/);
  });

  it('the next apply that writes the state rewrites every digest in the scrypt form, records it did not touch included', async () => {
    await ws.write('auth.yaml', secretAuthMethods('2h'));
    const r = await inStory(ws, applying(FAST));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const after = await readState();
    expect(after.salt).toBe(fresh.salt);
    for (const d of allDigests(after)) expect(d).toMatch(/^scrypt:N=4096,r=8,p=1:[0-9a-f]{64}$/);
    expect(allDigests(after).sort()).toEqual(allDigests(fresh).sort());
    const again = await inStory(ws, planning({ detailedExitcode: true }));
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
