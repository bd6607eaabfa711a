import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST, openWorld, type Shape, type World } from '../reliability/world.js';

/*
 * Regression: on the Nomad Variables state backend, the head's CAS write, the lock
 * acquire and the lock release were never retried, so one lost reply failed the apply; and after a
 * lost reply to a head write that had landed, every later write of the run conflicted with its own
 * committed version ("changed by someone else"). Now each is retried after a read-back that
 * recognises our own write. Through the built CLI; the sandbox applies the request, then resets the
 * connection (`loseReplyOf`).
 */

let world: World;
let shape: Shape = { authMethods: 1, bindingRules: 0, modules: 0, workspacesPerModule: 0, state: 'nomad' };

beforeAll(async () => {
  world = await openWorld({ seed: 16 });
  await world.writeShape(shape);
  const first = await world.cli(['apply', '--auto-approve', ...FAST]);
  expect(first.code, first.stderr).toBe(0);
});
afterAll(async () => world?.close());

/** One more auth method and binding rule, so the apply has several state writes to make. */
async function grow(): Promise<void> {
  shape = { ...shape, authMethods: shape.authMethods + 2, bindingRules: shape.bindingRules + 2 };
  await world.writeShape(shape);
}

async function applyConverges(): Promise<string> {
  const a = await world.cli(['apply', '--auto-approve', ...FAST]);
  expect(a.code, a.stdout + a.stderr).toBe(0);
  expect(a.stderr).not.toMatch(/changed by someone else|state could not be saved/);
  const p = await world.cli(['plan', '--detailed-exitcode']);
  expect(p.code, p.stdout + p.stderr).toBe(0);
  return a.stderr;
}

const lostReplies = (op: string) =>
  world.ws.sandbox.nomad.log.entries().filter((e) => e.fault === 'lost-reply' && e.query.includes(op)).length;

describe('Nomad Variables state: lost replies are settled by a read-back, not fatal', () => {
  it('the reply of two head CAS writes is lost (the fence and the first state write): the apply and every later write succeed', async () => {
    await grow();
    world.ws.sandbox.nomad.loseReplyOf({ op: 'cas-write', path: 'converge/state', count: 2 });
    await applyConverges();
    expect(lostReplies('cas=')).toBe(2);
  });

  it('the reply of the lock acquire is lost: the run finds out it holds the lock and goes on', async () => {
    await grow();
    world.ws.sandbox.nomad.loseReplyOf({ op: 'lock-acquire', path: 'converge/state-lock' });
    await applyConverges();
    expect(lostReplies('lock-acquire')).toBe(1);
  });

  it('the reply of the lock release is lost: the release counts as done and the next run gets the lock at once', async () => {
    await grow();
    world.ws.sandbox.nomad.loseReplyOf({ op: 'lock-release', path: 'converge/state-lock' });
    const stderr = await applyConverges();
    expect(stderr).not.toContain('no longer ours');
    expect(lostReplies('lock-release')).toBe(1);
    await grow();
    await applyConverges();
  });
});
