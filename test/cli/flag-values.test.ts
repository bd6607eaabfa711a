import { describe, expect, it } from 'vitest';
import { openWorkspace } from '../e2e/harness.js';

/*
 * Regressions: `--parallelism zero` silently became 4, zero durations were taken,
 * sandbox numbers were read with Number() (NaN went through); Terraform's single-dash long flags got
 * "unknown option" with no suggestion. Each bad flag stops the run before any request.
 */

describe('numeric and duration flags are checked', () => {
  it.each([
    [['apply', '--auto-approve', '--parallelism', 'zero', '.'], '--parallelism: "zero" is not a whole number from 1 to 10000'],
    [['apply', '--auto-approve', '--parallelism', '0', '.'], '--parallelism: "0" is not a whole number from 1 to 10000'],
    [['apply', '--auto-approve', '--parallelism', '2.5', '.'], '--parallelism: "2.5" is not a whole number'],
    [['apply', '--auto-approve', '--run-timeout', '0s', '.'], '--run-timeout: "0s" must be longer than zero'],
    [['apply', '--auto-approve', '--poll-interval', 'soon', '.'], '--poll-interval: "soon" is not a duration'],
    [['apply', '--auto-approve', '--lock-timeout', '5 minutes', '.'], '--lock-timeout: "5 minutes" is not a duration'],
    [['sandbox', '--port', 'http'], '--port: "http" is not a whole number from 0 to 65534'],
    [['sandbox', '--fault-rate', '20%'], '--fault-rate: "20%" is not a number from 0 to 1'],
    [['sandbox', '--latency', '-5'], '--latency: "-5" is not a whole number of at least 0'],
  ])('%j is refused: %s', async (args, message) => {
    const ws = await openWorkspace({ copyExamples: true });
    try {
      const r = await ws.cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
      expect(ws.sandbox.log.entries().length).toBe(0);
    } finally {
      await ws.close();
    }
  });
});

describe('Terraform-style single-dash long flags', () => {
  it.each([
    [['plan', '-detailed-exitcode', '.'], '--detailed-exitcode'],
    [['apply', '-auto-approve', '.'], '--auto-approve'],
    [['apply', '-parallelism=8', '.'], '--parallelism=8'],
  ])('%j suggests %s', async (args, flag) => {
    const ws = await openWorkspace({ copyExamples: true });
    try {
      const r = await ws.cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`unknown option '${args[1]}'`);
      expect(r.stderr).toContain(`Did you mean ${flag}?`);
      expect(ws.sandbox.log.entries().length).toBe(0);
    } finally {
      await ws.close();
    }
  });
});
