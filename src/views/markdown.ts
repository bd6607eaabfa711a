/** Markdown helpers for PR comments (GitHub-flavoured). */

/** GitHub refuses comment and issue bodies longer than this. */
export const DEFAULT_MARKDOWN_MAX = 65_536;

/** Escapes text for Markdown prose (HTML-significant characters and inline markup). */
export function mdEscape(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')).replace(/([\\`*_|[\]])/g, '\\$1');
}

/** Inline code that survives backticks inside the text. */
export function mdCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** A fenced block whose fence is longer than any backtick run inside (values may hold backticks). */
export function mdFence(lang: string, body: string): string {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${body}\n${fence}`;
}

export function htmlEscape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/**
 * Joins `top` and as many `sections` as fit in `maxLength` (GitHub's 65 536-character cap on comment
 * and issue bodies). When some are left out, `note(shown, total)` says so; `top` (summary, banners)
 * is always kept, so a cut report still says what matters.
 */
export function fitSections(top: string, sections: readonly string[], maxLength: number, note: (shown: number, total: number) => string): string {
  const full = (top + sections.join('')).trimEnd() + '\n';
  if (full.length <= maxLength) return full;
  const reserve = note(sections.length, sections.length).length + 1;
  let text = top;
  let shown = 0;
  for (const section of sections) {
    if (text.length + section.length + reserve > maxLength) break;
    text += section;
    shown += 1;
  }
  text = (text + note(shown, sections.length)).trimEnd() + '\n';
  // Only an absurdly small limit gets here: keep the beginning (the summary comes first).
  return text.length <= maxLength ? text : text.slice(0, Math.max(0, maxLength - 1)) + '…';
}
