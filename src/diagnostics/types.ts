export interface Position {
  /** 1-based */
  line: number;
  /** 1-based */
  col: number;
}

export interface SourceRange {
  file: string;
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** Stable code, e.g. `schema.unknown-field`, `nomad.auth-method.name`. */
  code: string;
  /** One line: what is wrong. */
  summary: string;
  /** How to fix it (and why, where useful). */
  detail?: string;
  range?: SourceRange;
}

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}

/** Sort by file, line, column, then summary; drop exact duplicates. */
export function sortDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of diags) {
    const key = JSON.stringify([d.severity, d.code, d.summary, d.range]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out.sort((a, b) => {
    const fa = a.range?.file ?? '';
    const fb = b.range?.file ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    const la = a.range?.start.line ?? 0;
    const lb = b.range?.start.line ?? 0;
    if (la !== lb) return la - lb;
    const ca = a.range?.start.col ?? 0;
    const cb = b.range?.start.col ?? 0;
    if (ca !== cb) return ca - cb;
    return a.summary < b.summary ? -1 : a.summary > b.summary ? 1 : 0;
  });
}
