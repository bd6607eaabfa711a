/**
 * A small HCL syntax check: braces, brackets and parentheses balance, strings close, heredocs end.
 * Not a parser: enough to catch a broken copy-paste in an example job file.
 * Returns problems as `line N: message`; empty when the file looks well-formed.
 */
export function checkHclBalance(text: string): string[] {
  const problems: string[] = [];
  const stack: { ch: string; line: number }[] = [];
  const pairs: Record<string, string> = { '}': '{', ']': '[', ')': '(' };
  const lines = text.split('\n');
  let heredoc: { tag: string; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const n = i + 1;
    if (heredoc) {
      if (line.trim() === heredoc.tag) heredoc = undefined;
      continue;
    }
    let inString = false;
    for (let j = 0; j < line.length; j++) {
      const c = line[j] ?? '';
      if (inString) {
        if (c === '\\') j++;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '#' || (c === '/' && line[j + 1] === '/')) break;
      if (c === '"') {
        inString = true;
        continue;
      }
      if (c === '<' && line[j + 1] === '<') {
        const m = /^<<-?([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(line.slice(j));
        if (m?.[1]) {
          heredoc = { tag: m[1], line: n };
          break;
        }
      }
      if (c === '{' || c === '[' || c === '(') stack.push({ ch: c, line: n });
      else if (c in pairs) {
        const top = stack.pop();
        if (!top) problems.push(`line ${n}: unexpected ${c}`);
        else if (top.ch !== pairs[c]) problems.push(`line ${n}: ${c} closes ${top.ch} opened on line ${top.line}`);
      }
    }
    if (inString) problems.push(`line ${n}: unterminated string`);
  }
  if (heredoc) problems.push(`line ${heredoc.line}: heredoc <<${heredoc.tag} never ends`);
  for (const open of stack) problems.push(`line ${open.line}: ${open.ch} never closed`);
  return problems;
}

/** Top-level-or-nested block names present, e.g. `periodic {` → 'periodic'. */
export function hclBlocks(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^\s*([a-z_]+)(?:\s+"[^"]*")*\s*\{/gm)) if (m[1]) names.add(m[1]);
  return names;
}

/** Attribute assignments, e.g. `prohibit_overlap = true` → ['prohibit_overlap', 'true']. */
export function hclAttributes(text: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of text.matchAll(/^\s*([a-z_]+)\s*=\s*(.+?)\s*$/gm)) if (m[1] && m[2]) attrs.set(m[1], m[2]);
  return attrs;
}
