/**
 * Fault switches shared by both simulators. Settable at start and at run time; every random choice
 * comes from a seeded generator so a failing run can be replayed.
 */
export interface FaultSettings {
  /** Added to every response, in ms. */
  latencyMs: number;
  /**
   * Added to every write's response (any method but GET and HEAD) on top of `latencyMs`, in ms: a stop or a
   * timeout aimed at a change in flight lands there without every read before it paying the wait too.
   */
  writeLatencyMs: number;
  /** Probability (0..1) of an extra latency spike, and its size. */
  spikeRate: number;
  spikeMs: number;
  /** Probabilities (0..1) per request. Checked in this order; at most one applies. */
  rate429: number;
  rate500: number;
  rate503: number;
  rateReset: number;
  /** Write the response body slowly: this many ms between chunks. */
  slowBodyMs: number;
  /** The next N write requests (non-GET) fail with 500 before reaching the model. */
  failNextWrites: number;
  seed: number;
}

export const NO_FAULTS: FaultSettings = {
  latencyMs: 0,
  writeLatencyMs: 0,
  spikeRate: 0,
  spikeMs: 0,
  rate429: 0,
  rate500: 0,
  rate503: 0,
  rateReset: 0,
  slowBodyMs: 0,
  failNextWrites: 0,
  seed: 1,
};

/** mulberry32: small, fast, good enough for fault dice; deterministic from the seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultDecision =
  | { type: 'none' }
  | { type: 'status'; status: 429 | 500 | 503 }
  | { type: 'reset' }
  | { type: 'fail-write' };

export class Faults {
  private settings: FaultSettings;
  private random: () => number;

  constructor(initial: Partial<FaultSettings> = {}) {
    this.settings = { ...NO_FAULTS, ...initial };
    this.random = seededRandom(this.settings.seed);
  }

  get current(): Readonly<FaultSettings> {
    return this.settings;
  }

  /** Change switches at run time; a new seed restarts the dice. */
  set(patch: Partial<FaultSettings>): void {
    this.settings = { ...this.settings, ...patch };
    if (patch.seed !== undefined) this.random = seededRandom(patch.seed);
  }

  reset(): void {
    this.set({ ...NO_FAULTS, seed: this.settings.seed });
  }

  /** Latency for this request: base (plus the writes' own for a write) plus an occasional spike. */
  latency(isWrite: boolean): number {
    const s = this.settings;
    let ms = s.latencyMs + (isWrite ? s.writeLatencyMs : 0);
    if (s.spikeRate > 0 && this.random() < s.spikeRate) ms += s.spikeMs;
    return ms;
  }

  decide(isWrite: boolean): FaultDecision {
    const s = this.settings;
    if (isWrite && s.failNextWrites > 0) {
      this.settings = { ...s, failNextWrites: s.failNextWrites - 1 };
      return { type: 'fail-write' };
    }
    const total = s.rate429 + s.rate500 + s.rate503 + s.rateReset;
    if (total <= 0) return { type: 'none' };
    const r = this.random();
    if (r < s.rate429) return { type: 'status', status: 429 };
    if (r < s.rate429 + s.rate500) return { type: 'status', status: 500 };
    if (r < s.rate429 + s.rate500 + s.rate503) return { type: 'status', status: 503 };
    if (r < total) return { type: 'reset' };
    return { type: 'none' };
  }
}
