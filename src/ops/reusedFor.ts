import type { Clock } from '../clock.js';

/**
 * `render`'s result, computed again only once `ms` have passed on `clock`: an expensive page (the
 * live report verifies the whole audit chain) costs one rendering per period, however often it is asked for.
 */
export function reusedFor<T>(ms: number, clock: Clock, render: () => T): () => T {
  let cached: { at: number; page: T } | undefined;
  return () => {
    if (cached === undefined || clock.now() - cached.at >= ms) cached = { at: clock.now(), page: render() };
    return cached.page;
  };
}
