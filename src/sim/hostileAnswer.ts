import type { Keypair } from '@solana/web3.js';
import type { RouteResult } from './http.js';
import { HOSTILE_STRANGER, type HostileContext, type HostileVariant, NotApplicable, tamper } from './hostile.js';
import { SOL_MINT } from './programIds.js';
import type { SimWorld } from './world.js';

/** What answers a request with a hostile transaction: the route's answer, its transaction swapped. */
export type HostileAnswer = (result: RouteResult, variant: HostileVariant) => RouteResult;

/**
 * The hostile fault's answerer for one world. `signers` are the keys whose slots the simulator may
 * sign again (Jupiter's gas wallet, the prediction payer and co-signers), so a tampered transaction
 * can still carry valid signatures from everyone but the trader.
 */
export function hostileAnswerer(world: SimWorld, signers: readonly Keypair[]): HostileAnswer {
  let tables = 0;
  const context: HostileContext = {
    table: (address) => world.lookupTables.get(address),
    newTable: (label, addresses, change = {}) => {
      const table = world.lookupTables.ensure(`hostile:${label}:${(tables += 1)}`, addresses);
      if (change.deactivated) world.lookupTables.deactivate(table.key.toBase58());
      if (change.length !== undefined) world.lookupTables.truncate(table.key.toBase58(), change.length);
      return table;
    },
    signers,
    alias: (genuine, tampered) => world.chain.aliasIntent(genuine, tampered),
    drain: (message, from, lamports) =>
      world.chain.addEffect(message, { from: from.toBase58(), to: HOSTILE_STRANGER.toBase58(), mint: SOL_MINT, amount: lamports }),
  };
  // A successful answer with a transaction; anything else (or a variant that does not apply) passes unchanged.
  return (result, variant) => {
    const body = result.body as Record<string, unknown> | null;
    if (result.status !== 200 || body === null || typeof body !== 'object' || typeof body['transaction'] !== 'string' || body['transaction'] === '')
      return result;
    // The answer hides Jupiter's fee while its transaction still charges it.
    if (variant === 'route-fee-undeclared') {
      const platformFee = typeof body['platformFee'] === 'object' && body['platformFee'] !== null ? { ...body['platformFee'], feeBps: 0, amount: '0' } : null;
      return { ...result, body: { ...body, feeBps: 0, ...(platformFee === null ? {} : { platformFee }) } };
    }
    try {
      return { ...result, body: { ...body, transaction: tamper(variant, body['transaction'], context) } };
    } catch (error) {
      if (error instanceof NotApplicable) return result;
      throw error;
    }
  };
}
