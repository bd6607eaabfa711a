/**
 * A unified diff of two texts (`fmt --diff`), hunks with 3 lines of context, from a longest-common-subsequence
 * of their lines. Manifests are small; past a size where the table would be costly, the whole file is
 * shown as removed and added.
 */
export function renderLineDiff(before: string, after: string, file: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const ops = a.length * b.length > 4_000_000 ? [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)] : lcsOps(a, b);
  const out = [`--- ${file}`, `+++ ${file} (formatted)`];
  const CONTEXT = 3;
  const changedAt = ops.map((op, i) => (op.startsWith(' ') ? -1 : i)).filter((i) => i >= 0);
  let shownTo = -1;
  for (const i of changedAt) {
    const from = Math.max(i - CONTEXT, shownTo + 1);
    if (from > shownTo + 1 && shownTo >= 0) out.push('@@');
    if (shownTo < 0) out.push('@@');
    for (let j = from; j <= Math.min(i + CONTEXT, ops.length - 1); j++) {
      if (j > shownTo) out.push(ops[j] ?? '');
      shownTo = Math.max(shownTo, j);
    }
  }
  return out.join('\n') + '\n';
}

function lcsOps(a: readonly string[], b: readonly string[]): string[] {
  const n = a.length;
  const m = b.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] ?? [];
    const next = table[i + 1] ?? [];
    for (let j = m - 1; j >= 0; j--) row[j] = a[i] === b[j] ? (next[j + 1] ?? 0) + 1 : Math.max(next[j] ?? 0, row[j + 1] ?? 0);
  }
  const ops: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push(` ${a[i] ?? ''}`);
      i++;
      j++;
    } else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0)) ops.push(`-${a[i++] ?? ''}`);
    else ops.push(`+${b[j++] ?? ''}`);
  }
  while (i < n) ops.push(`-${a[i++] ?? ''}`);
  while (j < m) ops.push(`+${b[j++] ?? ''}`);
  return ops;
}
