/**
 * Token search (area A): `GET /tokens/v2/search` (maintained, 10 credits) and `GET /ultra/v1/search`
 * (legacy, same shape), plus batched USD prices over search (≤ 100 mints a call).
 * Errors: 400/500 `{ error }` → ApiError `JUPITER_BAD_REQUEST` / `JUPITER_SERVER_ERROR` (reads retry 5xx).
 */
import { z } from 'zod';
import { Pubkey } from './schemas/common.js';
import { MAX_MINTS_PER_SEARCH, SearchQuery, SearchResponse } from './schemas/tokens.js';
import { type CallOptions, type JupiterClient, Priority, validateParams } from './transport.js';

export type SearchParams = SearchQuery;
export type { SearchResponse, MintInformation } from './schemas/tokens.js';

const TOKENS_SEARCH = '/tokens/v2/search';
const ULTRA_SEARCH = '/ultra/v1/search';

/** Searches tokens by symbol, name, or up to 100 comma-separated mints on Tokens V2. `[]` when nothing matches. */
export async function searchTokens(client: JupiterClient, params: SearchParams, options: CallOptions = {}): Promise<SearchResponse> {
  return await search(client, TOKENS_SEARCH, params, options);
}

/** The same search on the legacy Ultra route (unmaintained, kept for parity). */
export async function searchUltra(client: JupiterClient, params: SearchParams, options: CallOptions = {}): Promise<SearchResponse> {
  return await search(client, ULTRA_SEARCH, params, options);
}

async function search(client: JupiterClient, route: string, params: SearchParams, options: CallOptions): Promise<SearchResponse> {
  const query = validateParams(route, SearchQuery, params);
  return await client.request({
    method: 'GET',
    path: route,
    route,
    query,
    schema: SearchResponse,
    priority: options.priority ?? Priority.PollMarket,
    signal: options.signal,
  });
}

/** A token's USD price as search reports it. `usdPrice` is a price (a float from the API), not an amount. */
export interface TokenPrice {
  mint: string;
  symbol: string;
  decimals: number;
  usdPrice: number | null;
  priceBlockId: number | null;
}

const PricesParams = z.array(Pubkey);

export interface PricesOptions extends CallOptions {
  /** Which search route to use. @default 'tokens' */
  api?: 'tokens' | 'ultra';
}

/**
 * USD prices for any number of mints: duplicates removed, then ceil(n / 100) search calls, queued
 * together at price-polling priority. Mints the API does not know are absent from the map.
 */
export async function prices(client: JupiterClient, mints: readonly string[], options: PricesOptions = {}): Promise<Map<string, TokenPrice>> {
  const unique = [...new Set(validateParams('prices', PricesParams, mints))];
  const batches: string[][] = [];
  for (let i = 0; i < unique.length; i += MAX_MINTS_PER_SEARCH) batches.push(unique.slice(i, i + MAX_MINTS_PER_SEARCH));
  const search = options.api === 'ultra' ? searchUltra : searchTokens;
  const answers = await Promise.all(batches.map((batch) => search(client, { query: batch.join(',') }, options)));
  const wanted = new Set(unique);
  const out = new Map<string, TokenPrice>();
  for (const token of answers.flat()) {
    if (!wanted.has(token.id)) continue;
    out.set(token.id, {
      mint: token.id,
      symbol: token.symbol,
      decimals: token.decimals,
      usdPrice: token.usdPrice ?? null,
      priceBlockId: token.priceBlockId ?? null,
    });
  }
  return out;
}
