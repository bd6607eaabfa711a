/** Closed union of plan actions. `reason` on a change explains it; it never steers apply. */
export const ACTIONS = ['create', 'update', 'delete', 'upgrade', 'no-op'] as const;
export type Action = (typeof ACTIONS)[number];

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
