/**
 * The programs and addresses the guard knows by name. Copied (not imported) from their sources so
 * that src/solana does not depend on the simulator; test/unit/solana checks they equal
 * src/sim/programIds.ts. Sources: Solana's and SPL's published ids; Jupiter Aggregator v6 is the
 * program Jupiter's /order transactions call; the gas wallet is the fee payer Jupiter names for gasless swaps.
 */
import { PublicKey } from '@solana/web3.js';

export const SYSTEM_PROGRAM = new PublicKey('11111111111111111111111111111111');
export const COMPUTE_BUDGET_PROGRAM = new PublicKey('ComputeBudget111111111111111111111111111111');
export const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
export const TOKEN_2022_PROGRAM = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export const ASSOCIATED_TOKEN_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
export const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
/** The original Memo program, still used by some wallets' challenge transactions. */
export const MEMO_V1_PROGRAM = new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');
export const JUPITER_AGGREGATOR_V6 = new PublicKey('JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4');

/** Jupiter's gas wallet: the fee payer of gasless swaps on mainnet (named in `signatureFeePayer`). */
export const JUPITER_GAS_WALLET = 'gasTzr94Pmp4Gf8vknQnqxeYxdgwFjbgdJa4msYRpnB';
/** Jupiter's Order Engine: the program RFQ (`jupiterz`) fills call, with the market maker as fee payer. */
export const JUPITER_ORDER_ENGINE = new PublicKey('61DFfeTKM7trxYcPQCM78bJ794ddZprZpAwAnLiwTpYH');
/**
 * Jupiter's prediction-market program, as public portfolio trackers, wallet policy engines and
 * clients built against captured orders name it. Jupiter does not publish it: operators should
 * check it against a transaction of their own before going live (docs/security.md).
 */
export const JUPITER_PREDICTION_PROGRAM = '3ZZuTbwC6aJbvteyVxXUS7gtFYdf7AuXeitx6VyvjvUp';
/** Wrapped SOL: native SOL's mint in token accounts. */
export const SOL_MINT = 'So11111111111111111111111111111111111111112';
/** Circle's USDC: the dollar of prediction markets, and a quote currency. */
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** Tether's USDT. */
export const USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';

export const TOKEN_PROGRAMS: readonly PublicKey[] = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM];

const ataCache = new Map<string, string>();

/** The associated token account of `owner` for `mint` under `tokenProgram`, base58 (cached: PDA search is slow). */
export function associatedTokenAccount(owner: string, mint: string, tokenProgram: PublicKey = TOKEN_PROGRAM): string {
  const key = `${owner}:${mint}:${tokenProgram.toBase58()}`;
  let ata = ataCache.get(key);
  if (ata === undefined) {
    ata = PublicKey.findProgramAddressSync(
      [new PublicKey(owner).toBuffer(), tokenProgram.toBuffer(), new PublicKey(mint).toBuffer()],
      ASSOCIATED_TOKEN_PROGRAM,
    )[0].toBase58();
    if (ataCache.size >= 5_000) ataCache.clear();
    ataCache.set(key, ata);
  }
  return ata;
}

/** Both associated token accounts (classic and Token-2022) of `owner` for `mint`. */
export function associatedTokenAccounts(owner: string, mint: string): string[] {
  return TOKEN_PROGRAMS.map((program) => associatedTokenAccount(owner, mint, program));
}
