import { createRandom } from '../random.js';
import { derivedAddress, ProgramId, SOL_MINT, USDC_MINT } from './programIds.js';

/** The static facts of a simulated token; prices and stats move in {@link Market}. */
export interface TokenSpec {
  readonly mint: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  /** Starting USD price. */
  readonly priceUsd: number;
  /** Daily volatility of the random walk (0.05 = 5 % a day). */
  readonly dailyVolatility: number;
  /** Pegged tokens revert to `priceUsd` instead of walking freely. */
  readonly pegged: boolean;
  /** Pool depth in USD: drives price impact. */
  readonly liquidityUsd: number;
  readonly totalSupply: number;
  readonly circSupply: number;
  readonly isVerified: boolean;
  /** Flagged by Jupiter's audit (`audit.isSus` is only present when true). */
  readonly isSus: boolean;
  readonly tags: readonly string[];
  readonly createdAt: string;
  readonly organicScore: number;
  readonly holderCount: number;
  readonly tokenProgram: string;
  readonly website: string | null;
  readonly twitter: string | null;
  readonly mintAuthorityDisabled: boolean;
  readonly freezeAuthorityDisabled: boolean;
  readonly topHoldersPercentage: number;
}

type Spec = Omit<
  TokenSpec,
  'tokenProgram' | 'pegged' | 'mintAuthorityDisabled' | 'freezeAuthorityDisabled' | 'isSus' | 'website' | 'twitter' | 'topHoldersPercentage'
> &
  Partial<
    Pick<TokenSpec, 'tokenProgram' | 'pegged' | 'mintAuthorityDisabled' | 'freezeAuthorityDisabled' | 'isSus' | 'website' | 'twitter' | 'topHoldersPercentage'>
  >;

const token = (s: Spec): TokenSpec => ({
  tokenProgram: ProgramId.token.toBase58(),
  pegged: false,
  mintAuthorityDisabled: true,
  freezeAuthorityDisabled: true,
  isSus: false,
  website: null,
  twitter: null,
  topHoldersPercentage: 20,
  ...s,
});

/**
 * Real public mints for the verified tokens (so configs written for paper mode work live), plus two
 * traps every symbol resolver must survive: an unverified token flagged `isSus`, and an imitation
 * whose symbol copies a verified token's.
 */
export const TOKEN_CATALOG: readonly TokenSpec[] = [
  token({
    mint: SOL_MINT,
    symbol: 'SOL',
    name: 'Wrapped SOL',
    decimals: 9,
    priceUsd: 150,
    dailyVolatility: 0.04,
    liquidityUsd: 400_000_000,
    totalSupply: 600_000_000,
    circSupply: 480_000_000,
    isVerified: true,
    tags: ['verified', 'strict', 'community'],
    createdAt: '2020-04-10T00:00:00.000Z',
    organicScore: 99,
    holderCount: 3_500_000,
    website: 'https://solana.com',
    twitter: 'https://x.com/solana',
  }),
  token({
    mint: USDC_MINT,
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    priceUsd: 1,
    dailyVolatility: 0.0005,
    pegged: true,
    liquidityUsd: 600_000_000,
    totalSupply: 9_000_000_000,
    circSupply: 9_000_000_000,
    isVerified: true,
    tags: ['verified', 'strict', 'stablecoin'],
    createdAt: '2020-10-09T00:00:00.000Z',
    organicScore: 98,
    holderCount: 4_000_000,
    mintAuthorityDisabled: false,
    freezeAuthorityDisabled: false,
    website: 'https://www.circle.com',
  }),
  token({
    mint: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
    symbol: 'USDT',
    name: 'USDT',
    decimals: 6,
    priceUsd: 1,
    dailyVolatility: 0.0005,
    pegged: true,
    liquidityUsd: 300_000_000,
    totalSupply: 2_400_000_000,
    circSupply: 2_400_000_000,
    isVerified: true,
    tags: ['verified', 'strict', 'stablecoin'],
    createdAt: '2020-09-01T00:00:00.000Z',
    organicScore: 95,
    holderCount: 2_000_000,
    mintAuthorityDisabled: false,
    freezeAuthorityDisabled: false,
  }),
  token({
    mint: 'JuprjznTrTSp2UFa3ZBUFgwdAmtZCq4MQCwysN55USD',
    symbol: 'JupUSD',
    name: 'Jupiter USD',
    decimals: 6,
    priceUsd: 1,
    dailyVolatility: 0.0005,
    pegged: true,
    liquidityUsd: 50_000_000,
    totalSupply: 200_000_000,
    circSupply: 200_000_000,
    isVerified: true,
    tags: ['verified', 'stablecoin'],
    createdAt: '2025-10-01T00:00:00.000Z',
    organicScore: 85,
    holderCount: 60_000,
    mintAuthorityDisabled: false,
  }),
  token({
    mint: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN',
    symbol: 'JUP',
    name: 'Jupiter',
    decimals: 6,
    priceUsd: 0.8,
    dailyVolatility: 0.06,
    liquidityUsd: 40_000_000,
    totalSupply: 10_000_000_000,
    circSupply: 3_000_000_000,
    isVerified: true,
    tags: ['verified', 'strict', 'community'],
    createdAt: '2024-01-31T00:00:00.000Z',
    organicScore: 97,
    holderCount: 900_000,
    website: 'https://jup.ag',
    twitter: 'https://x.com/JupiterExchange',
  }),
  token({
    mint: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
    symbol: 'BONK',
    name: 'Bonk',
    decimals: 5,
    priceUsd: 0.00002,
    dailyVolatility: 0.08,
    liquidityUsd: 20_000_000,
    totalSupply: 88_000_000_000_000,
    circSupply: 77_000_000_000_000,
    isVerified: true,
    tags: ['verified', 'strict', 'community'],
    createdAt: '2022-12-25T00:00:00.000Z',
    organicScore: 94,
    holderCount: 950_000,
  }),
  token({
    mint: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm',
    symbol: 'WIF',
    name: 'dogwifhat',
    decimals: 6,
    priceUsd: 1.5,
    dailyVolatility: 0.09,
    liquidityUsd: 15_000_000,
    totalSupply: 998_900_000,
    circSupply: 998_900_000,
    isVerified: true,
    tags: ['verified', 'strict', 'community'],
    createdAt: '2023-11-20T00:00:00.000Z',
    organicScore: 93,
    holderCount: 200_000,
  }),
  token({
    mint: 'J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn',
    symbol: 'JitoSOL',
    name: 'Jito Staked SOL',
    decimals: 9,
    priceUsd: 180,
    dailyVolatility: 0.04,
    liquidityUsd: 80_000_000,
    totalSupply: 14_000_000,
    circSupply: 14_000_000,
    isVerified: true,
    tags: ['verified', 'strict', 'lst'],
    createdAt: '2022-11-01T00:00:00.000Z',
    organicScore: 92,
    holderCount: 250_000,
  }),
  token({
    mint: 'HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3',
    symbol: 'PYTH',
    name: 'Pyth Network',
    decimals: 6,
    priceUsd: 0.15,
    dailyVolatility: 0.07,
    liquidityUsd: 8_000_000,
    totalSupply: 10_000_000_000,
    circSupply: 5_700_000_000,
    isVerified: true,
    tags: ['verified', 'strict'],
    createdAt: '2023-11-20T00:00:00.000Z',
    organicScore: 90,
    holderCount: 300_000,
  }),
  // A fresh unverified token that Jupiter's audit flags: resolving it must need `allow_unverified`.
  token({
    mint: derivedAddress('jupbot-sim:mint:MOONRUG').toBase58(),
    symbol: 'MOONRUG',
    name: 'Moon Rug',
    decimals: 6,
    priceUsd: 0.0042,
    dailyVolatility: 0.4,
    liquidityUsd: 40_000,
    totalSupply: 1_000_000_000,
    circSupply: 1_000_000_000,
    isVerified: false,
    isSus: true,
    tags: ['unknown'],
    createdAt: '2026-01-01T00:00:00.000Z',
    organicScore: 3,
    holderCount: 412,
    mintAuthorityDisabled: false,
    freezeAuthorityDisabled: false,
    topHoldersPercentage: 91,
  }),
  // An imitation whose symbol copies JUP's: a resolver must pick the verified one or refuse.
  token({
    mint: derivedAddress('jupbot-sim:mint:fakeJUP').toBase58(),
    symbol: 'JUP',
    name: 'Jupiter Airdrop Token',
    decimals: 6,
    priceUsd: 0.01,
    dailyVolatility: 0.3,
    liquidityUsd: 25_000,
    totalSupply: 1_000_000_000,
    circSupply: 1_000_000_000,
    isVerified: false,
    tags: ['unknown'],
    createdAt: '2025-12-28T00:00:00.000Z',
    organicScore: 6,
    holderCount: 1_203,
    topHoldersPercentage: 78,
  }),
];

/**
 * `count` made-up verified tokens for load tests (a daemon watching hundreds of mints): the same
 * seed gives the same mints, prices, volatilities and depths. Mints are derived from the seed and
 * an index, so they never collide with the real ones above; symbols are `SYN001`, `SYN002`, …
 */
export function syntheticTokens(seed: string, count: number): TokenSpec[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`synthetic token count must be a whole number >= 0, got ${count}`);
  const random = createRandom(`${seed}:synthetic-tokens`);
  return Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(3, '0');
    // Log-uniform spreads, like real listings: prices from 0.0001 to 100 USD, depth from 100k to 50M USD.
    const priceUsd = Number((10 ** (random.next() * 6 - 4)).toPrecision(4));
    const liquidityUsd = Math.round(10 ** (5 + random.next() * 2.7));
    // Enough supply to stock the pool twenty times over and fund test wallets from the treasury.
    const totalSupply = Math.round((liquidityUsd / priceUsd) * 20);
    return token({
      mint: derivedAddress(`jupbot-sim:${seed}:synthetic:${i}`).toBase58(),
      symbol: `SYN${n}`,
      name: `Synthetic ${n}`,
      decimals: [6, 8, 9][random.int(0, 2)] as number,
      priceUsd,
      dailyVolatility: Number((0.03 + random.next() * 0.12).toFixed(3)),
      liquidityUsd,
      totalSupply,
      circSupply: Math.round(totalSupply * 0.8),
      isVerified: true,
      tags: ['verified', 'synthetic'],
      createdAt: '2025-06-01T00:00:00.000Z',
      organicScore: random.int(40, 95),
      holderCount: random.int(1_000, 500_000),
    });
  });
}

/** Priority of the mint a swap fee is taken in: SOL > stables > LSTs > others. */
export function feeMintPriority(spec: TokenSpec): number {
  if (spec.mint === SOL_MINT) return 4;
  if (spec.tags.includes('stablecoin')) return 3;
  if (spec.tags.includes('lst')) return 2;
  return spec.isVerified ? 1 : 0;
}
