/**
 * A fetch that counts the daemon's HTTP calls by route and knows when none is in flight: the
 * benches advance a ManualClock, then wait until everything the advance set off has finished.
 */
/** Counts the daemon's HTTP calls by route and knows when none is in flight. */
export function countingFetch(original: typeof globalThis.fetch): { fetch: typeof globalThis.fetch; calls: Map<string, number>; idle: () => Promise<void> } {
  const calls = new Map<string, number>();
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  const wrapped: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const route = routeOf(url, init);
    calls.set(route, (calls.get(route) ?? 0) + 1);
    inFlight++;
    try {
      const res = await original(input, init);
      // Read whole here, so "nothing in flight" also means "no answer still streaming in".
      const body = await res.arrayBuffer();
      const empty = [101, 204, 205, 304].includes(res.status);
      return new Response(empty ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      inFlight--;
      if (inFlight === 0) for (const wake of waiters.splice(0)) wake();
    }
  };
  const idle = async (): Promise<void> => {
    // Quiet for a few loop turns in a row: whatever an answer set off has started its next call, or is done.
    for (let quiet = 0; quiet < 4;) {
      if (inFlight > 0) {
        quiet = 0;
        await new Promise<void>((resolve) => waiters.push(resolve));
      } else {
        quiet++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  };
  waiters = [];
  return { fetch: wrapped, calls, idle };
}

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** A history read of one order's mint, newest created first: the executor's read-back (src/jupiter/recentHistory.ts), not a feed's. */
export const ONE_ORDER = ' (one order: its mint, newest created)';

/**
 * A call's label: `rpc method` for the RPC; else the method (GET left out) and path with order ids
 * as `{id}`, history reads of one order marked {@link ONE_ORDER}.
 */
function routeOf(url: URL, init: RequestInit | undefined): string {
  if (url.pathname === '/rpc' && typeof init?.body === 'string') return `rpc ${(JSON.parse(init.body) as { method?: string }).method ?? '?'}`;
  const method = init?.method ?? 'GET';
  const path = url.pathname.replace(ID, '{id}');
  const oneOrder = path.startsWith('/trigger/v2/orders/history') && url.searchParams.get('sort') === 'created_at' ? ONE_ORDER : '';
  return `${method === 'GET' ? '' : `${method} `}${path}${oneOrder}`;
}
