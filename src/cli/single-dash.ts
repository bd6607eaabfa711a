import type { Command } from 'commander';

/**
 * Terraform spells its long flags with one dash (`-detailed-exitcode`, `-auto-approve`). Commander
 * reads `-detailed-exitcode` as a cluster of short flags and answers "unknown option" with no
 * suggestion, so a Terraform habit got no help. Returns the message to print, in commander's own
 * error style, when an argument is one dash plus the name of one of our long flags.
 */
export function singleDashLongFlag(program: Command, argv: readonly string[]): string | undefined {
  const longNames = new Set<string>();
  const visit = (c: Command) => {
    for (const o of c.options) if (o.long) longNames.add(o.long.replace(/^--/, ''));
    for (const sub of c.commands) visit(sub);
  };
  visit(program);
  for (const arg of argv) {
    if (arg === '--') break;
    const m = /^-([a-z][a-z-]+)(=.*)?$/.exec(arg);
    if (m?.[1] && longNames.has(m[1])) return `error: unknown option '${arg}'\n(Did you mean --${m[1]}${m[2] ?? ''}? converge spells long flags with two dashes.)\n`;
  }
  return undefined;
}
