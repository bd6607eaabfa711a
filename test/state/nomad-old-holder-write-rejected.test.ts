import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConvergeError } from '../../src/diagnostics/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpClient } from '../../src/http/types.js';
import { startNomadSimulator } from '../../src/sandbox/nomad/index.js';
import { createNomadVariablesBackend } from '../../src/state/nomad/index.js';

/*
 * Regression: a holder whose lease had ended without it knowing kept writing the state
 * after another run took the lock; its CAS writes were refused only when the new holder happened to
 * have written first (luck of indexes: 7 writes by the old holder were seen landing). Now the new
 * holder fences the head when it takes the lock, so the old holder's very next write fails, as
 * `state.lock-lost` naming the new lock. The takeover is made at once with a force-unlock (a real
 * lease takes 2 x TTL + LockDelay to clear: test/slow covers that path).
 */

type Sim = Awaited<ReturnType<typeof startNomadSimulator>>;
let sim: Sim;
let http: HttpClient;

beforeAll(async () => {
  sim = await startNomadSimulator({ host: '127.0.0.1', port: 0 });
  http = createHttpClient({ baseUrl: sim.url });
});
afterAll(async () => {
  await http?.close();
  await sim?.stop();
});

const backend = () => createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path: 'converge/fenced', http });

async function codeOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isConvergeError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  return { code: 'none', message: 'the write went through' };
}

describe('a holder that lost the lock cannot write the state', () => {
  it('the new holder fences the head when it takes the lock; the old holder\'s next write is refused', async () => {
    const old = backend();
    const oldLock = await old.lock('apply', { timeoutMs: 0 });
    let doc = await old.read();
    doc = { ...doc, serial: doc.serial + 1, salt: 'old-1' };
    await old.write(doc);

    // The old holder's lease is gone (here: removed by hand); another run takes the lock but has not written yet.
    const next = backend();
    await next.forceUnlock(oldLock.info.id);
    const nextLock = await next.lock('apply', { timeoutMs: 0 });

    const refused = await codeOf(old.write({ ...doc, serial: doc.serial + 1, salt: 'old-2' }));
    expect(refused.code).toBe('state.lock-lost');
    expect(refused.message).toContain(nextLock.info.id);

    // The new holder reads and writes as if the old one had never tried.
    const seen = await next.read();
    expect(seen.salt).toBe('old-1');
    await next.write({ ...seen, serial: seen.serial + 1, salt: 'next-1' });
    expect((await backend().read()).salt).toBe('next-1');
    await nextLock.release();
    await old.close();
    await next.close();
  });
});
