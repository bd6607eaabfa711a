import { setFlagsFromString } from 'node:v8';

/*
 * Why the CLI tunes V8's heap (bench/results/2026-11-history.md "Sixth step", decisions §24): V8's defaults
 * suit a long-lived server with memory to spare. Its young generation doubles up to two 16 MB
 * semi-spaces (32 MB committed), and after a full collection the old generation may grow to up to four
 * times what that collection left before the next one. A converge run
 * is a batch job, often in a small CI container: in a plan over 10 000 workspaces those two allowances
 * were 75 of its 242 MB. Keeping the young generation at its starting size and the old one at 1.3 × its
 * live size costs a few more collections (about 1.3 s of a 75 s plan; 15 % of a 50 000-document validate)
 * and brought that plan to 167 MB.
 *
 * Both flags are read by V8 each time it sizes a space, so setting them at start-up takes effect without
 * a re-exec. Only the CLI sets them: the library leaves its host's heap alone. A heap flag the user gives
 * node (on the command line or in NODE_OPTIONS) wins over the tuning it would override.
 */

interface Tuning {
  flag: string;
  /** Flags of the user's that decide the same thing: when one is given, this tuning is left out. */
  overriddenBy: readonly string[];
}

const TUNINGS: readonly Tuning[] = [
  { flag: '--semi-space-growth-factor=1', overriddenBy: ['semi-space-growth-factor', 'max-semi-space-size', 'min-semi-space-size'] },
  { flag: '--heap-growing-percent=30', overriddenBy: ['heap-growing-percent'] },
];

/** V8 spells a flag with `-` or `_` alike. */
function flagName(arg: string): string | undefined {
  const m = /^--?(?:no-?)?([A-Za-z0-9_-]+)/.exec(arg);
  return m?.[1]?.replaceAll('_', '-');
}

/** The heap flags to set, given the arguments node was started with (`process.execArgv` and NODE_OPTIONS). */
export function heapFlags(nodeArgs: readonly string[]): string[] {
  const given = new Set(nodeArgs.map(flagName).filter((n): n is string => n !== undefined));
  return TUNINGS.filter((t) => !t.overriddenBy.some((n) => given.has(n))).map((t) => t.flag);
}

export function tuneHeapForBatchRun(): void {
  const nodeOptions = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  for (const flag of heapFlags([...process.execArgv, ...nodeOptions])) setFlagsFromString(flag);
}
