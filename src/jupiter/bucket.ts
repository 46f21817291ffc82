/**
 * Jupiter's rate-limit buckets and which one a path counts against. The limiter keeps one gate per
 * bucket and the client's events name the bucket; both read it from here.
 */

/** Gateway buckets: most routes share `main`; execute and submit routes have their own. */
export type Bucket = 'main' | 'execute';

/** Paths that count against the separate execute bucket. Matched on the path's end. */
export const EXECUTE_ROUTES: readonly string[] = ['/swap/v2/execute', '/ultra/v1/execute', '/swap/v2/submit', '/tx/v1/submit'];

/**
 * Which bucket a path belongs to. Trigger and Prediction routes — including `/prediction/v1/execute` —
 * share the main bucket: Jupiter names only the swap execute and submit routes as separate.
 */
export function bucketFor(path: string): Bucket {
  const clean = path.split('?')[0] ?? path;
  return EXECUTE_ROUTES.some((r) => clean === r || clean.endsWith(r)) ? 'execute' : 'main';
}
