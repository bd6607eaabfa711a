/**
 * A clock a test advances by hand: timers fire in order of their due time as `advanceTo` passes them, with the
 * promise jobs they start run between (no real waiting).
 */
export class ManualClock {
  private t = 0;
  private timers: { at: number; id: number; fn: () => void }[] = [];
  private nextId = 1;

  now = (): number => this.t;

  setTimeout = (fn: () => void, ms: number): ReturnType<typeof setTimeout> => {
    const id = this.nextId++;
    this.timers.push({ at: this.t + Math.max(0, ms), id, fn });
    return id as unknown as ReturnType<typeof setTimeout>;
  };

  clearTimeout = (handle: ReturnType<typeof setTimeout>): void => {
    this.timers = this.timers.filter((x) => x.id !== (handle as unknown as number));
  };

  sleep = (ms: number): Promise<void> => new Promise((resolve) => this.setTimeout(resolve, ms));

  /** Moves time to `at`, firing each timer due on the way at its own time. */
  async advanceTo(at: number): Promise<void> {
    await settle();
    for (;;) {
      const due = this.timers.filter((x) => x.at <= at).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
      await settle();
    }
    this.t = Math.max(this.t, at);
    await settle();
  }
}

/** Lets pending promise jobs and immediates run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}
