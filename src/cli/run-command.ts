import { isConvergeError, errorMessage } from '../diagnostics/errors.js';
import { sortDiagnostics } from '../diagnostics/types.js';
import { renderDiagnosticsJson, type JsonDiagnostic } from '../views/diagnostics.js';
import { diagnosticLine, summaryLine } from '../views/json-stream.js';
import { wrongAddressHint } from './address-hints.js';
import { EXIT, type Host } from './host.js';

/**
 * The one place errors become exit codes and messages. User and remote errors print their message
 * and hint; internal errors add the stack only with --verbose-like DEBUG, never by default.
 */
export async function runCommand(host: Host, action: (host: Host) => Promise<number>): Promise<number> {
  let code: number = EXIT.error;
  try {
    code = await action(host);
    if (code === EXIT.error) failureJson(host);
    return code;
  } catch (e) {
    host.endPhase();
    host.err(formatError(e, host.env.CONVERGE_DEBUG === '1', host.env));
    failureJson(host, e);
    if (host.streaming) host.stream(diagnosticLine(errorDiagnostic(e, host.env), host.time));
    code = EXIT.error;
    return code;
  } finally {
    host.endPhase();
    if (host.streaming) streamSummary(host, code);
  }
}

/** `--json-stream`: the last line, with the exit code and the command's result document when it made one. */
function streamSummary(host: Host, code: number): void {
  const command = host.opts.command ?? 'converge';
  const told = host.streamResult;
  const message = told?.message ?? (code === EXIT.error ? `${command} failed` : `${command} done`);
  host.stream(summaryLine(command, code, message, host.time, told?.result));
}

/**
 * With `--json`, a command that fails before printing its result prints the diagnostics document
 * (schemas/diagnostics.json) on stdout instead, so a machine reading stdout always gets JSON: the
 * diagnostics already shown on stderr, and the error that ended the command. Through host.out, so
 * the redactor sees it like every other byte.
 */
function failureJson(host: Host, e?: unknown): void {
  if (host.opts.json !== true || host.wroteStdout || host.streaming) return;
  const diags: JsonDiagnostic[] = sortDiagnostics(host.shownDiagnostics);
  if (e !== undefined) diags.push(errorDiagnostic(e, host.env));
  host.out(renderDiagnosticsJson(diags) + '\n');
}

/** An error as a diagnostic: its code, message, hint, range and whose fault it is. */
export function errorDiagnostic(e: unknown, env: NodeJS.ProcessEnv): JsonDiagnostic {
  if (!isConvergeError(e)) return { severity: 'error', code: 'internal.unexpected', summary: errorMessage(e), source: 'internal' };
  const hint = wrongAddressHint(e, env) ?? e.hint;
  return {
    severity: 'error',
    code: e.code,
    summary: e.message,
    ...(hint !== undefined ? { hint } : {}),
    ...(e.range !== undefined ? { range: e.range } : {}),
    source: e.source,
  };
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
