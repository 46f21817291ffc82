/**
 * The four areas of Jupiter's API the daemon speaks, as an API key sees them: a key can be scoped to
 * some products, and a region can be denied one (prediction markets are blocked in some countries).
 * Either way the gateway answers the area's calls `403 {"code":403,"message":…}` before the product
 * sees them: the client maps that to `JUPITER_FORBIDDEN` (a product's own 403, such as Trigger's
 * "userPubkey must match", keeps its product code and says nothing about access).
 *
 * {@link probeArea} is the one cheap call per area that asks again whether the key may use it: a read,
 * or a login challenge for Trigger (which creates nothing a user can see). A 403 is what it expects
 * while the area is refused, so the transport logs it at debug rather than once per probe at info.
 */
import { z } from 'zod';
import { SOL_MINT, USDC_MINT } from '../solana/programIds.js';
import { Priority, type JupiterClient } from './transport.js';

export type ApiArea = 'tokens' | 'swap' | 'trigger' | 'prediction';

/** Every area, in the order status and logs list them. */
export const API_AREAS: readonly ApiArea[] = ['tokens', 'swap', 'trigger', 'prediction'];

/** What an area is for, in the words status and log lines use. */
export const AREA_WORDS: Readonly<Record<ApiArea, string>> = {
  tokens: 'token search and prices',
  swap: 'swaps',
  trigger: 'Trigger vault orders',
  prediction: 'prediction markets',
};

/** The area a route template belongs to (`/prediction/v1/positions` → prediction), or null for none of them. */
export function areaOfRoute(route: string): ApiArea | null {
  if (route.startsWith('/swap/') || route === '/ultra/v1/order' || route === '/ultra/v1/execute') return 'swap';
  if (route.startsWith('/tokens/') || route.startsWith('/ultra/')) return 'tokens';
  if (route.startsWith('/trigger/')) return 'trigger';
  if (route.startsWith('/prediction/')) return 'prediction';
  return null;
}

/** Whether an answer is the gateway refusing the key (or the region) this area: 403 `JUPITER_FORBIDDEN`. */
export function isAreaRefusal(status: number | null, code: string | null): boolean {
  return status === 403 && code === 'JUPITER_FORBIDDEN';
}

/** Whether an answer shows the gateway let the call through to the area's product. */
export function isAreaAnswer(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/**
 * One call into `area`, at the lowest priority, whose answer only matters for its status: the client's
 * `request` event tells whoever watches areas whether the gateway let it through. Rejects like any call.
 */
export async function probeArea(client: JupiterClient, area: ApiArea, options: { readonly wallet: string; readonly signal?: AbortSignal }): Promise<void> {
  const common = { schema: z.unknown(), priority: Priority.PollMarket, expectedStatuses: [403], signal: options.signal };
  switch (area) {
    case 'tokens':
      await client.request({ ...common, method: 'GET', path: '/tokens/v2/search', route: '/tokens/v2/search', query: { query: USDC_MINT } });
      return;
    case 'swap':
      // A quote without a taker: a price and no transaction, nothing to sign.
      await client.request({
        ...common,
        method: 'GET',
        path: '/swap/v2/order',
        route: '/swap/v2/order',
        query: { inputMint: SOL_MINT, outputMint: USDC_MINT, amount: '10000000' },
      });
      return;
    case 'trigger':
      await client.request({
        ...common,
        method: 'POST',
        path: '/trigger/v2/auth/challenge',
        route: '/trigger/v2/auth/challenge',
        body: { walletPubkey: options.wallet, type: 'message' },
        idempotent: false,
      });
      return;
    case 'prediction':
      await client.request({ ...common, method: 'GET', path: '/prediction/v1/trading-status', route: '/prediction/v1/trading-status' });
      return;
  }
}
