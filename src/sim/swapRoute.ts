/**
 * The route an /order answer takes: which venues (swapVenues.ts, minus the order's `excludeDexes`),
 * in which instruction form, and the answer's `routePlan` naming the same venues with their shares of
 * the amounts, so the quote and its transaction always agree. Swap V2 builds `route_v2`, or
 * `shared_accounts_route_v2` for a route split across venues; the older forms are built only when a
 * test asks for them (`routing.form`) or a referral fee needs a fee account.
 */
import type { PublicKey } from '@solana/web3.js';
import type { RouteForm, RoutePlanStep } from './jupiterRoutes.js';
import type { Quote } from './market.js';
import { poolAccounts, poolKey, routeOf, type VenueStep } from './swapVenues.js';

/** How /order routes: a test's knob, like the fault table (not part of a kept world). */
export interface SwapRouting {
  /** The instruction form; `auto` = what Swap V2 builds. */
  form: RouteForm | 'auto';
  /** Venue labels to route through instead of each pair's own, best first (unlisted ones included). */
  venues: readonly string[] | null;
}

export interface PlannedRoute {
  readonly form: RouteForm;
  readonly sharedId: number;
  readonly steps: readonly RoutePlanStep[];
  readonly venueAccounts: readonly PublicKey[];
  /** The answer's `routePlan`. */
  readonly routePlan: readonly Record<string, unknown>[];
  /** A stable label of the venues, for the lookup table that holds their accounts. */
  readonly key: string;
}

/** Splits `total` by each step's basis points; the last step takes the remainder. */
function shares(total: bigint, steps: readonly VenueStep[]): bigint[] {
  let left = total;
  return steps.map((s, i) => {
    const part = i === steps.length - 1 ? left : (total * BigInt(s.bps)) / 10_000n;
    left -= part;
    return part;
  });
}

/** The route for a quote, or null when every venue is excluded. */
export function planRoute(
  quote: Quote,
  options: { excludedDexes: ReadonlySet<string>; routing: SwapRouting; referral: boolean; inUsd: number },
): PlannedRoute | null {
  const { inputMint, outputMint } = quote;
  const venues = routeOf(inputMint, outputMint, options.excludedDexes, options.routing.venues);
  if (venues.length === 0) return null;
  const aToB = inputMint < outputMint;
  const form: RouteForm =
    options.routing.form !== 'auto' ? options.routing.form : options.referral ? 'route' : venues.length > 1 ? 'shared_accounts_route_v2' : 'route_v2';
  const ins = shares(quote.routeIn, venues);
  const outs = shares(quote.routeOut, venues);
  return {
    form,
    sharedId: venues.length - 1,
    steps: venues.map((v) => ({ variant: v.venue.variant, fields: v.venue.fields(aToB), bps: v.bps, inputIndex: 0, outputIndex: 1 })),
    venueAccounts: venues.flatMap((v) => poolAccounts(inputMint, outputMint, v.venue)),
    routePlan: venues.map((v, i) => ({
      swapInfo: {
        ammKey: poolKey(inputMint, outputMint, v.venue),
        label: v.venue.label,
        inputMint,
        outputMint,
        inAmount: (ins[i] as bigint).toString(),
        outAmount: (outs[i] as bigint).toString(),
      },
      percent: v.bps / 100,
      bps: v.bps,
      usdValue: (options.inUsd * v.bps) / 10_000,
    })),
    key: venues.map((v) => v.venue.label).join('+'),
  };
}
