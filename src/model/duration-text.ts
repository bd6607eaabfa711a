/**
 * A duration for people: `2 ms`, `1.6 s`, `45 s`, `3 min 5 s`, `1 h 2 min`. The one formatter for
 * waits and elapsed times in messages, so no message ever shows a float like `1.616895999999997 ms`.
 * Sub-second waits round up (a positive wait never reads `0 ms`); seconds keep one decimal below 10 s.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0 ms';
  if (Math.ceil(ms) < 1000) return `${Math.ceil(ms)} ms`;
  if (ms < 10_000) {
    const s = Math.round(ms / 100) / 10;
    return s >= 10 ? '10 s' : `${s} s`;
  }
  const totalS = Math.round(ms / 1000);
  if (totalS < 60) return `${totalS} s`;
  const totalMin = Math.floor(totalS / 60);
  if (totalMin < 60) return totalS % 60 === 0 ? `${totalMin} min` : `${totalMin} min ${totalS % 60} s`;
  const h = Math.floor(totalMin / 60);
  return totalMin % 60 === 0 ? `${h} h` : `${h} h ${totalMin % 60} min`;
}

/** `850ms`, `12s`, `3m05s`, `1h02m`: short enough for a status line. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
