import { distance as levenshtein } from 'fastest-levenshtein';

/** Levenshtein distance, case-insensitive (so `oidcClientID` is one step from nothing: it matches). */
export function editDistance(a: string, b: string): number {
  return levenshtein(a.toLowerCase(), b.toLowerCase());
}

/**
 * The closest candidate, when it is close enough to be a plausible typo: at most a third of the
 * word's length in edits (at least 1, at most 3), or the same word in another case or with `_`/`-`.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const squash = (s: string): string => s.toLowerCase().replace(/[-_]/g, '');
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    if (c === word) continue;
    const same = squash(c) === squash(word);
    // The distance is at least the difference in length: a hostile multi-megabyte word (an unknown
    // `kind:` of 3 MB) would otherwise cost seconds of Levenshtein against every candidate.
    if (!same && Math.abs(c.length - word.length) > limit) continue;
    const d = same ? 0 : editDistance(word, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return bestD <= limit ? best : undefined;
}
