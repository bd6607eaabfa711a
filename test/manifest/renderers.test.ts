import { styleText } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/types.js';
import { renderDiagnosticsJson, renderDiagnosticsText, renderGithubAnnotations } from '../../src/views/diagnostics.js';

const file = 'nomad/auth.yaml';
const sources = new Map([[file, 'kind: NomadAuthMethod\nname: okta\nspec:\n  type: oidc\n\tclaims: x\n  secret: hunter2\n']]);
const error: Diagnostic = {
  severity: 'error',
  code: 'schema.enum',
  summary: '`spec.type` must be one of OIDC, JWT',
  detail: 'Got "oidc".',
  range: { file, start: { line: 4, col: 9 }, end: { line: 4, col: 13 } },
};
const warning: Diagnostic = {
  severity: 'warning',
  code: 'manifest.tabs',
  summary: 'tab',
  range: { file, start: { line: 5, col: 2 }, end: { line: 5, col: 8 } },
};

describe('renderDiagnosticsText', () => {
  it('is Terraform-like: severity and summary, location, source line with carets, detail', () => {
    expect(renderDiagnosticsText([error], { sources, color: false })).toBe(
      [
        'Error: `spec.type` must be one of OIDC, JWT',
        '',
        '  on nomad/auth.yaml line 4, column 9:',
        '  4 |   type: oidc',
        '    |         ^^^^',
        '',
        'Got "oidc".',
        '',
      ].join('\n'),
    );
  });

  it('keeps tabs in the caret padding; separates diagnostics with a blank line', () => {
    const out = renderDiagnosticsText([error, warning], { sources, color: false });
    expect(out).toContain('\n\nWarning: tab\n\n  on nomad/auth.yaml line 5, column 2:\n  5 | \tclaims: x\n    | \t^^^^^^\n');
    expect(out.endsWith('\n')).toBe(true);
  });

  it('never echoes the source line of a literal secret', () => {
    const d: Diagnostic = { ...warning, code: 'secret.literal', summary: 'secret in file', range: { file, start: { line: 6, col: 11 }, end: { line: 6, col: 18 } } };
    const out = renderDiagnosticsText([d], { sources, color: false });
    expect(out).not.toContain('hunter2');
    expect(out).toContain('line 6, column 11');
    // Regression: the warning had no excerpt at all; it quotes the line with the value masked.
    expect(out).toContain('  6 |   secret: (sensitive)\n    |           ^^^^^^^^^^^\n');
  });

  it('works without a range or a source, and colours on request', () => {
    expect(renderDiagnosticsText([{ severity: 'error', code: 'x', summary: 'no range', detail: 'fix' }], { sources, color: false })).toBe('Error: no range\n\nfix\n');
    expect(renderDiagnosticsText([{ ...error, range: { ...error.range!, file: 'other.yaml' } }], { sources, color: false })).toContain('  on other.yaml line 4, column 9:\n\nGot');
    const coloured = renderDiagnosticsText([error], { sources, color: true });
    expect(coloured).toContain(styleText(['bold', 'red'], 'Error:', { validateStream: false }));
    // The escapes are all the colour changes: without them it is the plain text.
    // eslint-disable-next-line no-control-regex -- matching ANSI escapes is the point
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(renderDiagnosticsText([error], { sources, color: false }));
    expect(renderDiagnosticsText([], { sources, color: false })).toBe('');
  });
});

describe('renderDiagnosticsJson', () => {
  it('counts and lists', () => {
    const parsed = JSON.parse(renderDiagnosticsJson([error, warning])) as Record<string, unknown>;
    expect(parsed).toEqual({ formatVersion: '1.0', valid: false, errorCount: 1, warningCount: 1, diagnostics: [error, warning] });
    expect(JSON.parse(renderDiagnosticsJson([warning]))).toMatchObject({ valid: true, errorCount: 0, warningCount: 1 });
  });
});

describe('renderGithubAnnotations', () => {
  it('one workflow command per diagnostic, escaped', () => {
    const d: Diagnostic = {
      severity: 'error',
      code: 'a:b,c',
      summary: '100% wrong',
      detail: 'line one\r\nline two',
      range: { file: 'dir,x/f:1.yaml', start: { line: 2, col: 3 }, end: { line: 2, col: 9 } },
    };
    expect(renderGithubAnnotations([d, { ...warning, detail: undefined }])).toBe(
      '::error file=dir%2Cx/f%3A1.yaml,line=2,col=3,endLine=2,endColumn=9,title=a%3Ab%2Cc::100%25 wrong — line one%0D%0Aline two\n' +
        '::warning file=nomad/auth.yaml,line=5,col=2,endLine=5,endColumn=8,title=manifest.tabs::tab\n',
    );
    expect(renderGithubAnnotations([{ severity: 'error', code: 'x', summary: 's' }])).toBe('::error title=x::s\n');
    expect(renderGithubAnnotations([])).toBe('');
  });
});
