/**
 * What a rehearsed vault deposit or withdrawal takes from the ledger besides the order's own funds,
 * and the refusal when the ledger cannot pay for it. Live, the transaction would be simulated by the
 * guard before it is signed and a wallet short of the amount (or of SOL for the fee) fails that
 * simulation; a rehearsal has no such transaction (crafting one needs the Trigger login it cannot
 * make), so the ledger is asked instead, and the intent fails the way live mode's would.
 *
 * The fee counted is Solana's base fee for the one signature those transactions carry: a lower
 * bound, since the priority fee Jupiter would put in the deposit it crafts is not known without it.
 */
import type { CallResult } from '../engine/executor/handler.js';
import type { Db } from '../store/db.js';
import { SOL_MINT } from '../solana/programIds.js';
import { ledgerBalances } from './ledger.js';

/** Lamports per signature: Solana's base fee. */
export const SIGNATURE_FEE_LAMPORTS = 5_000n;

/** The failure when the ledger holds less than `needs` (amount by mint, the fee in SOL added); null when it holds enough. */
export function unfunded(db: Db, needs: ReadonlyMap<string, bigint>, what: string): Extract<CallResult, { kind: 'failed' }> | null {
  const wanted = new Map(needs);
  wanted.set(SOL_MINT, (wanted.get(SOL_MINT) ?? 0n) + SIGNATURE_FEE_LAMPORTS);
  const held = ledgerBalances(db);
  const short = [...wanted].filter(([mint, amount]) => (held.get(mint) ?? 0n) < amount);
  if (short.length === 0) return null;
  const words = short.map(([mint, amount]) => `${amount} of ${mint} (the ledger holds ${held.get(mint) ?? 0n})`).join(', ');
  return {
    kind: 'failed',
    code: 'GUARD_REFUSED',
    message: `the ${what} needs ${words}: its simulation would fail, and live mode would not sign it`,
    data: {
      reason: 'SIMULATION_FAILED',
      rehearsal: true,
      short: Object.fromEntries(short.map(([mint, amount]) => [mint, { needs: amount.toString(), held: (held.get(mint) ?? 0n).toString() }])),
    },
  };
}
