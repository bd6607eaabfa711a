import { isConvergeError, errorMessage } from '../diagnostics/errors.js';
import { wrongAddressHint } from './address-hints.js';
import { EXIT, type Host } from './host.js';

/**
 * The one place errors become exit codes and messages. User and remote errors print their message
 * and hint; internal errors add the stack only with --verbose-like DEBUG, never by default.
 */
export async function runCommand(host: Host, action: (host: Host) => Promise<number>): Promise<number> {
  try {
    return await action(host);
  } catch (e) {
    host.endPhase();
    host.err(formatError(e, host.env.CONVERGE_DEBUG === '1', host.env));
    return EXIT.error;
  } finally {
    host.endPhase();
  }
}

/** `env` (optional) lets an unreadable answer name the address it came from. */
export function formatError(e: unknown, withStack: boolean, env?: NodeJS.ProcessEnv): string {
  if (isConvergeError(e)) {
    const where = e.range ? `\n  on ${e.range.file} line ${e.range.start.line}, column ${e.range.start.col}` : '';
    const shown = (env && wrongAddressHint(e, env)) ?? e.hint;
    const hint = shown ? `\n\n  ${shown}` : '';
    const whose = e.source === 'internal' ? ' (this is a bug in converge: please report it)' : '';
    return `Error: ${e.message}${whose}${where}${hint}\n`;
  }
  const stack = withStack && e instanceof Error && e.stack ? `\n${e.stack}` : '';
  return `Error: ${errorMessage(e)} (unexpected: set CONVERGE_DEBUG=1 for details)${stack}\n`;
}
