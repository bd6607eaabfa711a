import type { Diagnostic } from '../diagnostics/types.js';

/**
 * Summaries and details quote what the user wrote (`unknown kind \`…\``, names, durations). A hostile
 * or broken file can hold a multi-megabyte scalar; echoing it back turned a 3 MB value into 9 MB of
 * stderr. No useful message needs more than this: longer ones are cut in the middle of the text.
 */
export const MAX_SUMMARY_CHARS = 300;
export const MAX_DETAIL_CHARS = 1000;

export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = max - 1;
  const head = Math.ceil(keep * 0.7);
  return `${text.slice(0, head)}…${text.slice(text.length - (keep - head))}`;
}

export function clipDiagnostic(d: Diagnostic): Diagnostic {
  if (d.summary.length <= MAX_SUMMARY_CHARS && (d.detail === undefined || d.detail.length <= MAX_DETAIL_CHARS)) return d;
  const clipped: Diagnostic = { ...d, summary: clipText(d.summary, MAX_SUMMARY_CHARS) };
  if (d.detail !== undefined) clipped.detail = clipText(d.detail, MAX_DETAIL_CHARS);
  return clipped;
}
