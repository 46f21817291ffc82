/**
 * Token search for strategy resolution, answered once per query for a short while. Symbols are
 * pinned per strategy, so 1,000 strategies paying with USDC would each search "USDC" on their first
 * load (2,000 searches at a cold start in bench/daemon.ts, against a 600-a-minute quota). A failed
 * search is not kept: the next strategy asks again.
 *
 * Mints are asked about ahead, together: `prefetch` sends the mints not known yet 100 to a call (the
 * API's limit for comma-separated mints), and each mint's answer is kept as if it had been searched
 * alone, so a start with 200 mints written in strategies costs 2 search calls, not 200.
 */
import type { Clock } from '../clock.js';
import { MAX_MINTS_PER_SEARCH } from '../jupiter/schemas/tokens.js';
import type { TokenCandidate, TokenSearch } from '../strategies/tokenResolution.js';

/** Answers kept at most: a mint or symbol each (a directory of generated files is not bounded). */
const MAX_KEPT = 10_000;

export function cachedSearch(search: (query: string) => Promise<readonly TokenCandidate[]>, clock: Clock, ttlMs = 60_000): TokenSearch {
  const answers = new Map<string, { readonly at: number; readonly answer: Promise<readonly TokenCandidate[]> }>();
  const fresh = (query: string, now: number): Promise<readonly TokenCandidate[]> | undefined => {
    const known = answers.get(query);
    return known && now - known.at < ttlMs ? known.answer : undefined;
  };
  const keep = (query: string, answer: Promise<readonly TokenCandidate[]>, now: number): void => {
    if (answers.size >= MAX_KEPT) answers.clear();
    answers.set(query, { at: now, answer });
    // Only answers are kept; a failure is forgotten at once.
    answer.catch(() => {
      if (answers.get(query)?.answer === answer) answers.delete(query);
    });
  };
  const cached = (query: string): Promise<readonly TokenCandidate[]> => {
    const now = clock.now();
    const known = fresh(query, now);
    if (known) return known;
    const answer = search(query);
    keep(query, answer, now);
    return answer;
  };
  const prefetch = async (mints: readonly string[]): Promise<void> => {
    const now = clock.now();
    const unknown = [...new Set(mints)].filter((mint) => fresh(mint, now) === undefined);
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < unknown.length; i += MAX_MINTS_PER_SEARCH) {
      const batch = unknown.slice(i, i + MAX_MINTS_PER_SEARCH);
      const answer = search(batch.join(','));
      // What `search(mint)` would have answered: the tokens with that mint (none when it is unknown).
      for (const mint of batch)
        keep(
          mint,
          answer.then((tokens) => tokens.filter((t) => t.id === mint)),
          now,
        );
      // A failed batch is forgotten with its mints: each strategy then asks for its own and says why.
      calls.push(answer.catch(() => undefined));
    }
    await Promise.all(calls);
  };
  return Object.assign(cached, { prefetch });
}
