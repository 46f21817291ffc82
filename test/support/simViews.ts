/**
 * The simulator's side of what a test did, for our wallet only: its ledger (swaps, vault deposits
 * and withdrawals) and its orders (price, DCA, prediction). A test asserts on these, not on what
 * our journal says happened.
 */
import type { Simulator } from '../../src/sim/simulator.js';
import type { Wallet } from '../../src/solana/wallet.js';

/** The world a view reads: any test stack. */
export interface SimWorld {
  readonly sim: Simulator;
  readonly wallet: Pick<Wallet, 'address'>;
}

const ledger = (w: SimWorld): ReturnType<Simulator['control']['dumpLedger']>['entries'] =>
  w.sim.control.dumpLedger().entries.filter((e) => e.wallet === w.wallet.address);

/** Distinct swap transactions the ledger applied for our wallet. */
export function swapsLanded(w: SimWorld): string[] {
  return [
    ...new Set(
      ledger(w)
        .filter((e) => e.reason === 'swap')
        .map((e) => e.ref),
    ),
  ];
}

/** Amounts our wallet moved into a vault, one per landed deposit. */
export function depositAmounts(w: SimWorld): bigint[] {
  return ledger(w)
    .filter((e) => e.reason === 'deposit' && BigInt(e.delta) < 0n)
    .map((e) => -BigInt(e.delta));
}

/** Landed deposits into a vault. */
export const deposits = (w: SimWorld): number => depositAmounts(w).length;

/** Withdrawals of `mint` from the vault back to our wallet (landed cancels). */
export function withdrawals(w: SimWorld, mint: string): number {
  return ledger(w).filter((e) => e.reason === 'withdrawal' && e.mint === mint && BigInt(e.delta) > 0n).length;
}

/** One of the simulator's price orders, as much of it as the tests read. */
export interface SimPriceOrder {
  id: string;
  orderState: string;
  orderType: string;
  triggerPriceUsd: number | null;
  initialInputAmount: string;
  expiresAt: number | null;
}

/** The simulator's price orders of our wallet. */
export function simOrders(w: SimWorld): SimPriceOrder[] {
  const dump = w.sim.control.dumpOrders() as { price?: Array<SimPriceOrder & { userPubkey: string }> };
  return (dump.price ?? []).filter((o) => o.userPubkey === w.wallet.address);
}

/** The simulator's view of one of our price orders. */
export const simOrder = (w: SimWorld, id: string): SimPriceOrder | undefined => simOrders(w).find((o) => o.id === id);

/** The simulator's DCA orders of our wallet. */
export function simDca(w: SimWorld): Array<{ id: string; state: string; roundsFilled: number; inputAmountRemaining: string }> {
  const dump = w.sim.control.dumpOrders() as {
    dca?: Array<{ id: string; wallet: string; state: string; roundsFilled: number; inputAmountRemaining: string }>;
  };
  return (dump.dca ?? []).filter((o) => o.wallet === w.wallet.address).map(({ wallet: _w, ...o }) => o);
}

/** The simulator's prediction orders of our wallet. */
export function simPredictionOrders(w: SimWorld): Array<{ pubkey: string; status: string; isBuy: boolean }> {
  const dump = w.sim.control.dumpOrders() as { prediction?: Array<{ pubkey: string; status: string; isBuy: boolean; ownerPubkey: string }> };
  return (dump.prediction ?? []).filter((o) => o.ownerPubkey === w.wallet.address);
}
