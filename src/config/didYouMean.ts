/**
 * Edit distance with adjacent transpositions (the "optimal string alignment" variant of
 * Damerau–Levenshtein): `moed` → `mode` costs 1, as a typist would expect, not 2.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rolling rows: the transposition step looks two rows back.
  let beforePrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (beforePrev[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    beforePrev = prev;
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** Case and separators do not count: `requestsPerSecond` and `requests-per-second` are exact hits. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[-_\s]/g, '');
}

/** How far a guess may be and still be offered: a wild suggestion is worse than none. */
function tolerance(length: number): number {
  if (length <= 4) return 1;
  if (length <= 8) return 2;
  return 3;
}

/**
 * The candidates closest to `input`, best first: an empty list when none is close enough.
 * Several are returned only when they tie, so the user is never asked to pick from a list.
 */
export function closestMatches(input: string, candidates: readonly string[]): string[] {
  const target = squash(input);
  let best = Number.POSITIVE_INFINITY;
  let matches: string[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === input) continue;
    const squashed = squash(candidate);
    const distance = squashed === target ? 0 : editDistance(input.toLowerCase(), candidate.toLowerCase());
    const limit = Math.min(tolerance(Math.max(input.length, candidate.length)), input.length - 1);
    if (distance > limit) continue;
    if (distance < best) {
      best = distance;
      matches = [candidate];
    } else if (distance === best) {
      matches.push(candidate);
    }
  }
  return matches.slice(0, 3);
}

/** ` (did you mean "x"?)`, ` (did you mean "x" or "y"?)`, or `''` when nothing is close. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const matches = closestMatches(input, candidates).map((m) => JSON.stringify(m));
  if (matches.length === 0) return '';
  const last = matches.pop() ?? '';
  const list = matches.length > 0 ? `${matches.join(', ')} or ${last}` : last;
  return ` (did you mean ${list}?)`;
}
