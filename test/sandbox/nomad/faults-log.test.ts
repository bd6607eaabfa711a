import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/async/manual-clock.js';
import { RequestLog } from '../../../src/sandbox/common/request-log.js';
import { TEXT, client, startSim } from './helpers.js';

/** Status of each of n sequential GETs; a reset (socket destroyed, no answer) shows as 0. */
async function statuses(url: string, n: number): Promise<number[]> {
  const c = client(url);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    try {
      out.push((await c.get('/v1/acl/auth-methods')).status);
    } catch {
      out.push(0);
    }
  }
  return out;
}

describe('faults (src/sandbox/common Faults, applied to every request)', () => {
  it('makes the same decisions for the same seed', async () => {
    const faults = { rate429: 0.2, rate500: 0.2, rate503: 0.2, rateReset: 0.1, seed: 42 };
    const a = await startSim({ faults });
    const b = await startSim({ faults });
    try {
      const sa = await statuses(a.s.url, 30);
      const sb = await statuses(b.s.url, 30);
      expect(sa).toEqual(sb);
      for (const code of [0, 200, 429, 500, 503]) expect(sa).toContain(code);
      // Same seed again at run time: the dice restart.
      a.s.faults.set({ seed: 42 });
      expect(await statuses(a.s.url, 30)).toEqual(sa);
      const logged = a.s.log.entries({ service: 'nomad' }).slice(0, 30);
      expect(logged.map((e) => e.status)).toEqual(sa);
      expect(logged.filter((e) => e.status === 0).every((e) => e.fault === 'reset')).toBe(true);
      expect(logged.filter((e) => e.status === 429).every((e) => e.fault === 'status-429')).toBe(true);
    } finally {
      await a.s.stop();
      await b.s.stop();
    }
  });

  it('answers an injected 429 in plain text, like every Nomad error', async () => {
    const sim = await startSim({ faults: { rate429: 1 } });
    try {
      const r = await sim.anon.get('/v1/acl/auth-methods');
      expect(r.status).toBe(429);
      expect(r.headers.get('content-type')).toBe(TEXT);
      expect(r.text).toBe('Too many requests');
    } finally {
      await sim.s.stop();
    }
  });

  it('destroys the socket without an answer on reset', async () => {
    const sim = await startSim({ faults: { rateReset: 1 } });
    try {
      await expect(fetch(`${sim.s.url}/v1/acl/auth-methods`)).rejects.toThrow();
      expect(sim.s.log.entries()[0]).toMatchObject({ status: 0, fault: 'reset' });
    } finally {
      await sim.s.stop();
    }
  });

  it('fails the next N writes with 500 before they reach the model; reads pass', async () => {
    const sim = await startSim({ faults: { failNextWrites: 2 } });
    try {
      const body = { Items: { a: 'b' } };
      expect((await sim.m.get('/v1/var/fw')).status).toBe(404);
      const first = await sim.m.put('/v1/var/fw', body);
      expect([first.status, first.text]).toEqual([500, 'No cluster leader']);
      expect((await sim.m.put('/v1/var/fw', body)).status).toBe(500);
      expect((await sim.m.get('/v1/var/fw')).status).toBe(404);
      expect((await sim.m.put('/v1/var/fw', body)).status).toBe(200);
      expect(sim.s.faults.current.failNextWrites).toBe(0);
      expect(sim.s.log.writes('nomad').map((e) => e.fault ?? 'none')).toEqual(['fail-write', 'fail-write', 'none']);
    } finally {
      await sim.s.stop();
    }
  });

  it('adds latency, and writes slow bodies in pieces', async () => {
    // The simulator's waits run on a manual clock: each request is run to its end on it, and the time it took
    // is read there, exactly.
    const clock = new ManualClock();
    const sim = await startSim({ faults: { latencyMs: 120 }, clock });
    try {
      let t = clock.now();
      await clock.run(sim.anon.get('/v1/acl/auth-methods'));
      expect(clock.now() - t).toBe(120);
      await clock.run(sim.m.put('/v1/var/slow', { Items: { k: 'x'.repeat(5000) } }));
      sim.s.faults.set({ latencyMs: 0, slowBodyMs: 60 });
      t = clock.now();
      const r = await clock.run(sim.m.get('/v1/var/slow'));
      expect(r.status).toBe(200);
      expect(r.text.length).toBeGreaterThan(5000);
      // ~5.1 KB in 1 KiB pieces: 6 pieces, 5 gaps of 60 ms.
      expect(clock.now() - t).toBe(300);
      expect(sim.s.log.entries().at(-1)?.ms).toBe(300);
    } finally {
      await sim.s.stop();
    }
  });

  it('writeLatencyMs slows the writes only, on top of latencyMs; over the control API too', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ faults: { writeLatencyMs: 500 }, clock });
    try {
      let t = clock.now();
      await clock.run(sim.anon.get('/v1/acl/auth-methods'));
      expect(clock.now() - t).toBe(0);
      t = clock.now();
      await clock.run(sim.m.put('/v1/var/w', { Items: { a: 'b' } }));
      expect(clock.now() - t).toBe(500);
      expect((await client(sim.s.url).put('/__sandbox/faults', { latencyMs: 20 })).status).toBe(200);
      t = clock.now();
      await clock.run(sim.m.del('/v1/var/w'));
      expect(clock.now() - t).toBe(520);
      t = clock.now();
      await clock.run(sim.m.get('/v1/var/w'));
      expect(clock.now() - t).toBe(20);
    } finally {
      await sim.s.stop();
    }
  });

  it('applies latency spikes from the seeded dice', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ faults: { spikeRate: 1, spikeMs: 100 }, clock });
    try {
      const t = clock.now();
      await clock.run(sim.anon.get('/v1/acl/auth-methods'));
      expect(clock.now() - t).toBe(100);
    } finally {
      await sim.s.stop();
    }
  });
});

describe('request log', () => {
  it('records every request with service, method, path, query, status, time; into a shared log if given', async () => {
    const log = new RequestLog();
    const sim = await startSim({ log });
    try {
      await sim.m.get('/v1/acl/auth-method/x?stale=true');
      await sim.m.put('/v1/var/logged', { Items: { a: 'b' } });
      const e = log.entries();
      expect(e).toHaveLength(2);
      expect(e[0]).toMatchObject({ service: 'nomad', method: 'GET', path: '/v1/acl/auth-method/x', query: 'stale=true', status: 404 });
      expect(e[1]).toMatchObject({ method: 'PUT', path: '/v1/var/logged', query: '', status: 200 });
      expect(typeof e[0]?.ms).toBe('number');
      expect(new Date(e[0]?.at ?? '').toString()).not.toBe('Invalid Date');
      expect(sim.s.log).toBe(log);
    } finally {
      await sim.s.stop();
    }
  });
});

describe('admin surface /__sandbox', () => {
  it('reads and patches the fault switches; not logged and never faulted', async () => {
    const sim = await startSim({ faults: { rate500: 1 } });
    try {
      const admin = client(sim.s.url);
      const g = await admin.get('/__sandbox/faults');
      expect(g.status).toBe(200);
      expect(g.json<{ rate500: number }>().rate500).toBe(1);
      const p = await admin.put('/__sandbox/faults', { rate500: 0, latencyMs: 5 });
      expect(p.json<{ rate500: number; latencyMs: number }>()).toMatchObject({ rate500: 0, latencyMs: 5 });
      expect(sim.s.faults.current.latencyMs).toBe(5);
      expect((await admin.put('/__sandbox/faults', { nope: 1 })).status).toBe(400);
      expect((await admin.put('/__sandbox/faults', { rate429: 2 })).status).toBe(400);
      expect((await admin.put('/__sandbox/faults', '{')).status).toBe(400);
      expect((await sim.anon.get('/v1/acl/auth-methods')).status).toBe(200);
      const l = await admin.get('/__sandbox/log');
      const entries = l.json<Array<{ path: string }>>();
      expect(entries.map((x) => x.path)).toEqual(['/v1/acl/auth-methods']);
      expect((await admin.req('DELETE', '/__sandbox/log')).status).toBe(200);
      expect(sim.s.log.size).toBe(0);
    } finally {
      await sim.s.stop();
    }
  });
});
