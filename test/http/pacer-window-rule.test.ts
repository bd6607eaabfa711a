import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/http/pacer.js';
import { ManualClock } from '../../src/async/manual-clock.js';

/*
 * The pacer sends a request once every request `limit` places back or earlier has been answered more than a second
 * ago (the server counts a sliding second of arrivals, docs/reference/hcp-terraform-api.md §8). It used to space
 * requests 1.1 s ÷ limit apart after each release: 27.3 of HCP Terraform's 30 a second, about 25 on a loaded machine
 * (every late timer's lateness lost), and a request delayed by more than the 100 ms guard could still be the 31st of
 * its second. Time here is a manual clock: requests are counted, nothing waits in real time.
 */

interface Sent {
  sentAt: number;
  answeredAt: number;
}

/** Queues `n` requests at time 0; each is answered `answerMs(i)` after it goes. Returns what went, in order. */
function drive(pacer: Pacer, clock: ManualClock, n: number, answerMs: (i: number) => number): Sent[] {
  const sent: Sent[] = [];
  for (let i = 0; i < n; i++) {
    void pacer.acquire().then((slot) => {
      const k = sent.length;
      const s: Sent = { sentAt: clock.now(), answeredAt: Infinity };
      sent.push(s);
      slot.sent();
      clock.setTimeout(() => {
        s.answeredAt = clock.now();
        slot.answered();
      }, answerMs(k));
    });
  }
  return sent;
}

/** The most arrivals in any one-second window, each arrival placed at `arrival(request)`. */
function busiestSecond(sent: Sent[], arrival: (s: Sent, i: number) => number): number {
  const at = sent.map(arrival).sort((a, b) => a - b);
  let most = 0;
  for (let j = 0, i = 0; j < at.length; j++) {
    while ((at[i] as number) <= (at[j] as number) - 1000) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describe('pacer: the window rule (a request goes once the one `limit` places back was answered a second ago)', () => {
  it('sends the 31st request once the 1st was answered a second ago, not 1.1 s after it went', async () => {
    const clock = new ManualClock(0);
    const pacer = new Pacer(30, 1, 100, clock);
    const sent = drive(pacer, clock, 400, () => 50);
    await clock.advance(1040 - clock.now());
    // 30 a second evenly spread: the 30th went at 967 ms; the 31st waits for the 1st's answer (50 ms) + 1 s.
    expect(sent.length).toBe(30);
    await clock.advance(1060 - clock.now());
    expect(sent.length).toBe(31);
    // Over ten seconds: 30 per 1 052 ms (the latency lost), where 30 per 1.1 s sent 273.
    await clock.advance(10_000 - clock.now());
    expect(sent.length).toBeGreaterThanOrEqual(280);
  });

  it('never lets 31 requests reach the server in one second, however slow the answers or late the timers', async () => {
    const clock = new ManualClock(0);
    const pacer = new Pacer(30, 1, 100, clock);
    // Every seventh answer takes 400 ms (more than the old 100 ms guard), the others 20–80 ms.
    const sent = drive(pacer, clock, 400, (i) => (i % 7 === 3 ? 400 : 20 + ((i * 37) % 60)));
    // The event loop stalls now and then: time jumps 150 ms before the overdue timers fire.
    for (let t = 0; t < 20_000; t += 50) await clock.advance(t % 700 === 0 ? t + 150 : t - clock.now());
    await clock.advance(40_000 - clock.now());
    expect(sent.length).toBe(400);
    // A request reaches the server at some moment between its send and its answer: the worst cases both ways.
    expect(busiestSecond(sent, (s) => s.answeredAt)).toBeLessThanOrEqual(30);
    expect(busiestSecond(sent, (s, i) => (i % 2 ? s.sentAt : s.answeredAt))).toBeLessThanOrEqual(30);
    expect(busiestSecond(sent, (s, i) => (i % 2 ? s.answeredAt : s.sentAt))).toBeLessThanOrEqual(30);
  });

  it('a request never answered holds the others only for a while (it is taken to have arrived 2 s after it went)', async () => {
    const clock = new ManualClock(0);
    const pacer = new Pacer(30, 1, 100, clock);
    const sent = drive(pacer, clock, 60, (i) => (i === 0 ? 1e9 : 50));
    await clock.advance(2_900 - clock.now());
    expect(sent.length).toBe(30);
    await clock.advance(3_100 - clock.now());
    expect(sent.length).toBeGreaterThan(30);
  });
});
