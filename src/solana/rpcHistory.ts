/**
 * The two history calls of the Solana RPC the daemon reads a landed transaction back with:
 * `getSignaturesForAddress` (the transactions that touched an account, newest first) and
 * `getTransaction` (one of them: its signatures, accounts, error, and the balances before and after,
 * in the `json` encoding with v0 transactions allowed). Only the fields jupbot reads are parsed.
 */
import { z } from 'zod';

export interface AddressSignature {
  readonly signature: string;
  readonly slot: number;
  readonly err: unknown;
  /** Unix seconds; null when the node does not know it. */
  readonly blockTime: number | null;
}

export interface TokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string | null;
  readonly amount: bigint;
  readonly decimals: number;
}

export interface LandedTransaction {
  readonly slot: number;
  readonly blockTime: number | null;
  /** The transaction's signatures in slot order; the first is its id. */
  readonly signatures: readonly string[];
  /** Static keys, then the lookup tables' writable and read-only addresses, as `accountIndex` counts them. */
  readonly accountKeys: readonly string[];
  readonly err: unknown;
  readonly fee: bigint;
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly preTokenBalances: readonly TokenBalance[];
  readonly postTokenBalances: readonly TokenBalance[];
}

export const SignaturesForAddress = z.array(
  z.looseObject({ signature: z.string().min(32), slot: z.number().int().nonnegative(), err: z.unknown(), blockTime: z.number().int().nullish() }),
);

const Lamports = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]);
const RawTokenBalance = z.looseObject({
  accountIndex: z.number().int().nonnegative(),
  mint: z.string(),
  owner: z.string().nullish(),
  uiTokenAmount: z.looseObject({ amount: z.string().regex(/^\d+$/), decimals: z.number().int().nonnegative() }),
});

export const RawLandedTransaction = z
  .looseObject({
    slot: z.number().int().nonnegative(),
    blockTime: z.number().int().nullish(),
    transaction: z.looseObject({
      signatures: z.array(z.string()),
      message: z.looseObject({ accountKeys: z.array(z.string()) }),
    }),
    meta: z
      .looseObject({
        err: z.unknown(),
        fee: Lamports,
        preBalances: z.array(Lamports),
        postBalances: z.array(Lamports),
        preTokenBalances: z.array(RawTokenBalance).nullish(),
        postTokenBalances: z.array(RawTokenBalance).nullish(),
        loadedAddresses: z.looseObject({ writable: z.array(z.string()), readonly: z.array(z.string()) }).nullish(),
      })
      .nullable(),
  })
  .nullable();

const tokenBalance = (b: z.output<typeof RawTokenBalance>): TokenBalance => ({
  accountIndex: b.accountIndex,
  mint: b.mint,
  owner: b.owner ?? null,
  amount: BigInt(b.uiTokenAmount.amount),
  decimals: b.uiTokenAmount.decimals,
});

export function landedTransaction(raw: z.output<typeof RawLandedTransaction>): LandedTransaction | null {
  if (raw === null || raw.meta === null) return null;
  const loaded = raw.meta.loadedAddresses;
  return {
    slot: raw.slot,
    blockTime: raw.blockTime ?? null,
    signatures: raw.transaction.signatures,
    accountKeys: [...raw.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])],
    err: raw.meta.err ?? null,
    fee: BigInt(raw.meta.fee),
    preBalances: raw.meta.preBalances.map((v) => BigInt(v)),
    postBalances: raw.meta.postBalances.map((v) => BigInt(v)),
    preTokenBalances: (raw.meta.preTokenBalances ?? []).map(tokenBalance),
    postTokenBalances: (raw.meta.postTokenBalances ?? []).map(tokenBalance),
  };
}
