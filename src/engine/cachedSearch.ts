/**
 * Token search for strategy resolution, answered once per query for a short while. Symbols are
 * pinned per strategy, so 1,000 strategies paying with USDC would each search "USDC" on their first
 * load (2,000 searches at a cold start in bench/daemon.ts, against a 600-a-minute quota). A failed
 * search is not kept: the next strategy asks again.
 */
import type { Clock } from '../clock.js';
import type { TokenSearch } from '../strategies/tokenResolution.js';

export function cachedSearch(search: TokenSearch, clock: Clock, ttlMs = 60_000): TokenSearch {
  const answers = new Map<string, { readonly at: number; readonly answer: ReturnType<TokenSearch> }>();
  return (query) => {
    const now = clock.now();
    const known = answers.get(query);
    if (known && now - known.at < ttlMs) return known.answer;
    const answer = search(query);
    // Bounded: queries are the strategies' symbols, but a directory of generated files is not.
    if (answers.size >= 1_000) answers.clear();
    answers.set(query, { at: now, answer });
    // Only answers are kept; a failure is forgotten at once.
    answer.catch(() => {
      if (answers.get(query)?.answer === answer) answers.delete(query);
    });
    return answer;
  };
}
