/**
 * How one bucket's quota is split in a fleet: the headroom only order work may use, and each daemon's
 * share. Pure arithmetic, apart from the Redis side, so the config check can refuse a `fleet.size`
 * the quota cannot hold before anything starts.
 */

/** Share and headroom of one bucket: what the fleet decided, written down once. */
export interface QuotaSplit {
  readonly quota: number;
  /** Slots only order work (Exit, Place) may use, fleet-wide. */
  readonly headroom: number;
  /** What this daemon may use alone: (quota − headroom) / size, at least 1. */
  readonly share: number;
  /**
   * Slots of the share only this daemon's order work may use while it decides alone (Redis lost,
   * or settling after Redis lost its data): polls cannot fill the share and hold an exit back.
   */
  readonly shareHeadroom: number;
}

/**
 * headroom = max(1, ceil(5 % of quota)); share = max(1, floor((quota − headroom) / size));
 * the share's own headroom likewise 5 % of it, at least 1, when the share has room for a poll beside it.
 */
export function quotaSplit(quota: number, size: number): QuotaSplit {
  const headroom = Math.max(1, Math.ceil(quota * 0.05));
  const share = Math.max(1, Math.floor((quota - headroom) / size));
  return { quota, headroom, share, shareHeadroom: share < 2 ? 0 : Math.max(1, Math.ceil(share * 0.05)) };
}

/**
 * Why a fleet of `size` cannot share a quota of `quota` per window, or null when it can: every daemon
 * needs a share of at least one request beside the fleet's headroom, or the reservations alone
 * exceed what polls and order work may fill and nothing is ever admitted.
 */
export function fleetSizeProblem(quota: number, size: number): string | null {
  const headroom = Math.max(1, Math.ceil(quota * 0.05));
  if (size <= quota - headroom) return null;
  return `fleet.size ${size} is more daemons than a quota of ${quota} requests per 60 s can hold (${headroom} kept for order work leaves ${quota - headroom}, at least one for each daemon): raise api.requests_per_second to the key's plan, or run fewer daemons on the key`;
}
