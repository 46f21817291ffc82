/**
 * Token search wire schemas: `GET /tokens/v2/search` and `GET /ultra/v1/search` (same `MintInformation`
 * shape). Source: Jupiter's OpenAPI files for Tokens V2 and Ultra.
 */
import { z } from 'zod';
import { openEnum } from './common.js';

/** Most mints one search call may carry (comma-separated). */
export const MAX_MINTS_PER_SEARCH = 100;

/** Trading statistics over one interval; every field is nullable. Changes are percentages. */
export const TokenStats = z.looseObject({
  priceChange: z.number().nullish(),
  holderChange: z.number().nullish(),
  liquidityChange: z.number().nullish(),
  volumeChange: z.number().nullish(),
  buyVolume: z.number().nullish(),
  sellVolume: z.number().nullish(),
  buyOrganicVolume: z.number().nullish(),
  sellOrganicVolume: z.number().nullish(),
  numBuys: z.number().nullish(),
  numSells: z.number().nullish(),
  numTraders: z.number().nullish(),
  numOrganicBuyers: z.number().nullish(),
  numNetBuyers: z.number().nullish(),
});
export type TokenStats = z.output<typeof TokenStats>;

/**
 * Safety audit. `isSus` is only present when the token has been flagged: check presence
 * (`audit.isSus !== undefined`), not truthiness alone. Percentages are on a 0–100 scale.
 */
export const TokenAudit = z.looseObject({
  isSus: z.boolean().nullish(),
  mintAuthorityDisabled: z.boolean().nullish(),
  freezeAuthorityDisabled: z.boolean().nullish(),
  topHoldersPercentage: z.number().nullish(),
  devBalancePercentage: z.number().nullish(),
  devMints: z.number().nullish(),
});
export type TokenAudit = z.output<typeof TokenAudit>;

/**
 * One token as search returns it. The spec marks no field required; we require the four every
 * example carries (`id`, `name`, `symbol`, `decimals`) because nothing useful can be done without them.
 */
export const MintInformation = z.looseObject({
  /** The mint address. */
  id: z.string(),
  name: z.string(),
  symbol: z.string(),
  icon: z.string().nullish(),
  decimals: z.number().int().min(0),
  tokenProgram: z.string().nullish(),
  createdAt: z.string().nullish(),
  twitter: z.string().nullish(),
  telegram: z.string().nullish(),
  website: z.string().nullish(),
  discord: z.string().nullish(),
  instagram: z.string().nullish(),
  tiktok: z.string().nullish(),
  otherUrl: z.string().nullish(),
  dev: z.string().nullish(),
  mintAuthority: z.string().nullish(),
  freezeAuthority: z.string().nullish(),
  circSupply: z.number().nullish(),
  totalSupply: z.number().nullish(),
  launchpad: z.string().nullish(),
  partnerConfig: z.string().nullish(),
  graduatedPool: z.string().nullish(),
  graduatedAt: z.string().nullish(),
  holderCount: z.number().nullish(),
  fdv: z.number().nullish(),
  mcap: z.number().nullish(),
  /** USD price per whole token (a price, not an amount: a float is how Jupiter sends it). */
  usdPrice: z.number().nullish(),
  priceBlockId: z.number().nullish(),
  liquidity: z.number().nullish(),
  fees: z.number().nullish(),
  apy: z.looseObject({ jupEarn: z.number().nullish() }).nullish(),
  stats5m: TokenStats.nullish(),
  stats1h: TokenStats.nullish(),
  stats6h: TokenStats.nullish(),
  stats24h: TokenStats.nullish(),
  stats7d: TokenStats.nullish(),
  stats30d: TokenStats.nullish(),
  firstPool: z.looseObject({ id: z.string(), createdAt: z.string().nullish() }).nullish(),
  audit: TokenAudit.nullish(),
  /** 0–100. */
  organicScore: z.number().nullish(),
  organicScoreLabel: openEnum(['high', 'medium', 'low']).nullish(),
  isVerified: z.boolean().nullish(),
  tags: z.array(z.string()).nullish(),
  updatedAt: z.string().nullish(),
});
export type MintInformation = z.output<typeof MintInformation>;

/** `GET /tokens/v2/search` and `GET /ultra/v1/search` 200 body: a JSON array (empty when nothing matches). */
export const SearchResponse = z.array(MintInformation);
export type SearchResponse = z.output<typeof SearchResponse>;

/** Query of both search routes. `query` is a symbol, a name, or up to 100 comma-separated mints. */
export const SearchQuery = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1, 'query must not be empty')
    .refine((q) => q.split(',').length <= MAX_MINTS_PER_SEARCH, `at most ${MAX_MINTS_PER_SEARCH} comma-separated mints`),
});
export type SearchQuery = z.input<typeof SearchQuery>;

/** 400 and 500 body of both search routes. */
export const SearchErrorBody = z.looseObject({ error: z.string() });
export type SearchErrorBody = z.output<typeof SearchErrorBody>;
