import type { Clock } from '../clock.js';

/**
 * `render`'s result, computed again only once `ms` have passed on `clock`: an expensive page (the
 * live report verifies the whole audit chain) costs one rendering per period, however often it is asked for.
 */
export function reusedFor(ms: number, clock: Clock, render: () => string): () => string {
  let cached: { at: number; page: string } | undefined;
  return () => {
    if (cached === undefined || clock.now() - cached.at >= ms) cached = { at: clock.now(), page: render() };
    return cached.page;
  };
}
