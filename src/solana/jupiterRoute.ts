/**
 * What the guard can read from a Jupiter Aggregator v6 instruction without its IDL. The two ExactIn
 * entry points, `route` and `shared_accounts_route`, are Anchor instructions whose arguments end with
 * a fixed tail — `in_amount: u64, quoted_out_amount: u64, slippage_bps: u16, platform_fee_bps: u8` —
 * after a variable-length route plan, so the input amount is read from the end. Their accounts put the
 * user's source and destination token accounts at fixed positions. Every other Jupiter instruction
 * (ExactOut, token-ledger variants whose amount comes from an account) is not recognised, and the
 * guard refuses it rather than guess.
 */
import { createHash } from 'node:crypto';
import type { ResolvedInstruction } from './resolveAccounts.js';

export interface JupiterRouteFacts {
  readonly name: 'route' | 'shared_accounts_route';
  readonly inAmount: bigint;
  readonly source: string;
  readonly destination: string;
}

const discriminator = (name: string): string => createHash('sha256').update(`global:${name}`).digest().subarray(0, 8).toString('hex');

/** Account positions (from the v6 IDL) of the user's source and destination token accounts. */
const LAYOUTS = new Map<string, { name: JupiterRouteFacts['name']; source: number; destination: number }>([
  [discriminator('route'), { name: 'route', source: 2, destination: 3 }],
  [discriminator('shared_accounts_route'), { name: 'shared_accounts_route', source: 3, destination: 6 }],
]);
const TAIL_BYTES = 8 + 8 + 2 + 1;

/** The facts of a recognised ExactIn route instruction, or null. */
export function jupiterRouteFacts(ix: ResolvedInstruction): JupiterRouteFacts | null {
  if (ix.data.byteLength < 8 + TAIL_BYTES) return null;
  const layout = LAYOUTS.get(Buffer.from(ix.data.subarray(0, 8)).toString('hex'));
  if (!layout) return null;
  const source = ix.accounts[layout.source]?.address;
  const destination = ix.accounts[layout.destination]?.address;
  if (source === undefined || destination === undefined) return null;
  const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
  return { name: layout.name, inAmount: view.getBigUint64(ix.data.byteLength - TAIL_BYTES, true), source, destination };
}
