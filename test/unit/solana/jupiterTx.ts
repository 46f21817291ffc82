/**
 * Builders for Jupiter's real instruction layouts, written independently of the decoders under test:
 * Aggregator v6 routes as its IDL lays them out, the prediction program's order and claim, lookup
 * tables in their on-chain form, and pre-signed payer or co-signer slots.
 */
import { createHash } from 'node:crypto';
import { AddressLookupTableAccount, type Keypair, PublicKey, TransactionInstruction, type VersionedTransaction } from '@solana/web3.js';
import nacl from 'tweetnacl';
import type { LookupTableResolver } from '../../../src/solana/lookupTables.js';
import { ProgramId } from '../../../src/sim/programIds.js';

export const JUP = new PublicKey('JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4');
export const PREDICTION = new PublicKey('3ZZuTbwC6aJbvteyVxXUS7gtFYdf7AuXeitx6VyvjvUp');
export const ORDER_ENGINE = new PublicKey('61DFfeTKM7trxYcPQCM78bJ794ddZprZpAwAnLiwTpYH');
export const EVENT_AUTHORITY = PublicKey.findProgramAddressSync([Buffer.from('__event_authority')], JUP)[0];

const disc = (name: string): Buffer => createHash('sha256').update(`global:${name}`).digest().subarray(0, 8);

/** A little Borsh writer. */
export class Writer {
  readonly parts: Buffer[] = [];
  u8(v: number): this {
    this.parts.push(Buffer.from([v]));
    return this;
  }
  u16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(v);
    this.parts.push(b);
    return this;
  }
  u32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.parts.push(b);
    return this;
  }
  u64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(v);
    this.parts.push(b);
    return this;
  }
  str(v: string): this {
    const bytes = Buffer.from(v, 'utf8');
    return this.u32(bytes.length).raw(bytes);
  }
  raw(b: Uint8Array): this {
    this.parts.push(Buffer.from(b));
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export interface Step {
  /** Variant index and its field bytes. */
  readonly variant: number;
  readonly fields?: readonly number[];
  readonly share?: number;
}
const WHIRLPOOL: Step = { variant: 17, fields: [1] };

function plan(w: Writer, steps: readonly Step[], v2: boolean): void {
  w.u32(steps.length);
  steps.forEach((s, i) => {
    w.u8(s.variant).raw(Buffer.from(s.fields ?? []));
    if (v2) w.u16(s.share ?? 10_000);
    else w.u8(s.share ?? 100);
    w.u8(i).u8(i + 1);
  });
}

const meta = (pubkey: PublicKey, isWritable = false, isSigner = false) => ({ pubkey, isSigner, isWritable });

export interface RouteArgs {
  readonly authority: PublicKey;
  readonly source: PublicKey;
  readonly userDestination: PublicKey;
  readonly destination?: PublicKey | null;
  readonly destinationMint: PublicKey;
  readonly platformFeeAccount?: PublicKey | null;
  readonly inAmount: bigint;
  readonly quotedOutAmount: bigint;
  readonly slippageBps?: number;
  readonly platformFeeBps?: number;
  readonly steps?: readonly Step[];
  readonly trailing?: Uint8Array;
  /** Venue accounts after the IDL's list. */
  readonly venues?: readonly PublicKey[];
  readonly name?: 'route' | 'exact_out_route' | 'route_with_token_ledger';
}

/** Aggregator v6 `route` (or its ExactOut / token-ledger siblings) by the IDL. */
export function routeIx(a: RouteArgs): TransactionInstruction {
  const name = a.name ?? 'route';
  const w = new Writer().raw(disc(name));
  plan(w, a.steps ?? [WHIRLPOOL], false);
  if (name !== 'route_with_token_ledger') w.u64(a.inAmount);
  w.u64(a.quotedOutAmount)
    .u16(a.slippageBps ?? 50)
    .u8(a.platformFeeBps ?? 0);
  if (a.trailing) w.raw(a.trailing);
  const head =
    name === 'exact_out_route'
      ? [
          meta(ProgramId.token),
          meta(a.authority, false, true),
          meta(a.source, true),
          meta(a.userDestination, true),
          meta(a.destination ?? JUP, true),
          meta(a.destinationMint),
          meta(a.destinationMint),
          meta(a.platformFeeAccount ?? JUP, true),
          meta(JUP),
        ]
      : [
          meta(ProgramId.token),
          meta(a.authority, false, true),
          meta(a.source, true),
          meta(a.userDestination, true),
          meta(a.destination ?? JUP, true),
          meta(a.destinationMint),
          meta(a.platformFeeAccount ?? JUP, true),
        ];
  const ledger = name === 'route_with_token_ledger' ? [meta(new PublicKey(Buffer.alloc(32, 7)), true)] : [];
  return new TransactionInstruction({
    programId: JUP,
    keys: [...head, ...ledger, meta(EVENT_AUTHORITY), meta(JUP), ...(a.venues ?? []).map((v) => meta(v, true))],
    data: w.done(),
  });
}

export interface SharedArgs {
  readonly id: number;
  readonly programAuthority: PublicKey;
  readonly authority: PublicKey;
  readonly source: PublicKey;
  readonly programSource: PublicKey;
  readonly programDestination: PublicKey;
  readonly destination: PublicKey;
  readonly sourceMint: PublicKey;
  readonly destinationMint: PublicKey;
  readonly inAmount: bigint;
  readonly quotedOutAmount: bigint;
  readonly slippageBps?: number;
}

export function sharedRouteIx(a: SharedArgs): TransactionInstruction {
  const w = new Writer().raw(disc('shared_accounts_route')).u8(a.id);
  plan(w, [WHIRLPOOL], false);
  w.u64(a.inAmount)
    .u64(a.quotedOutAmount)
    .u16(a.slippageBps ?? 50)
    .u8(0);
  const keys = [
    meta(ProgramId.token),
    meta(a.programAuthority),
    meta(a.authority, false, true),
    meta(a.source, true),
    meta(a.programSource, true),
    meta(a.programDestination, true),
    meta(a.destination, true),
    meta(a.sourceMint),
    meta(a.destinationMint),
    meta(JUP, true),
    meta(JUP),
    meta(EVENT_AUTHORITY),
    meta(JUP),
  ];
  return new TransactionInstruction({ programId: JUP, keys, data: w.done() });
}

/** `route_v2`: amounts first, then the plan; no platform-fee account. */
export function routeV2Ix(a: Omit<RouteArgs, 'name' | 'platformFeeAccount'> & { sourceMint: PublicKey }): TransactionInstruction {
  const w = new Writer()
    .raw(disc('route_v2'))
    .u64(a.inAmount)
    .u64(a.quotedOutAmount)
    .u16(a.slippageBps ?? 50)
    .u16(a.platformFeeBps ?? 0)
    .u16(0);
  plan(w, a.steps ?? [WHIRLPOOL], true);
  const keys = [
    meta(a.authority, false, true),
    meta(a.source, true),
    meta(a.userDestination, true),
    meta(a.sourceMint),
    meta(a.destinationMint),
    meta(ProgramId.token),
    meta(ProgramId.token),
    meta(a.destination ?? JUP, true),
    meta(EVENT_AUTHORITY),
    meta(JUP),
  ];
  return new TransactionInstruction({ programId: JUP, keys, data: w.done() });
}

export interface OrderArgs {
  readonly payer: PublicKey;
  readonly owner: PublicKey;
  readonly protocol: PublicKey;
  readonly market: PublicKey;
  readonly position: PublicKey;
  readonly order: PublicKey;
  readonly funding: PublicKey;
  readonly mint: PublicKey;
  readonly externalOrderId: string;
  readonly isYes: boolean;
  readonly isBuy: boolean;
  readonly contracts: bigint;
  readonly priceBound: bigint;
  readonly cost?: bigint;
}

/** The prediction program's order instruction as it has been observed. */
export function orderIx(a: OrderArgs): TransactionInstruction {
  const data = new Writer()
    .raw(Buffer.from('8d3625cfedd2fad7', 'hex'))
    .str(a.externalOrderId)
    .str('market-hash-0001')
    .u8(a.isYes ? 1 : 0)
    .u8(a.isBuy ? 1 : 0)
    .u64(a.contracts)
    .u64(a.priceBound)
    .u64(a.cost ?? 0n)
    .u16(100)
    .u8(1)
    .u16(200)
    .done();
  const keys = [
    meta(a.payer, true, true),
    meta(a.owner, false, true),
    meta(a.protocol, false, true),
    meta(a.market, true),
    meta(a.position, true),
    meta(a.order, true),
    meta(a.funding, true),
    meta(a.mint),
  ];
  return new TransactionInstruction({ programId: PREDICTION, keys, data });
}

export function claimIx(a: Omit<OrderArgs, 'order' | 'externalOrderId' | 'isYes' | 'isBuy' | 'contracts' | 'priceBound' | 'cost'>): TransactionInstruction {
  const keys = [
    meta(a.payer, true, true),
    meta(a.owner, false, true),
    meta(a.protocol, false, true),
    meta(a.market, true),
    meta(a.position, true),
    meta(a.funding, true),
    meta(a.mint),
  ];
  return new TransactionInstruction({ programId: PREDICTION, keys, data: disc('claim_position') });
}

/** Fills the slots of `signers` as Jupiter's payer or co-signer does before handing the transaction out. */
export function presign(tx: VersionedTransaction, signers: readonly Keypair[]): VersionedTransaction {
  const message = tx.message.serialize();
  for (const kp of signers) {
    const i = tx.message.staticAccountKeys.findIndex((k) => k.equals(kp.publicKey));
    tx.signatures[i] = nacl.sign.detached(message, kp.secretKey);
  }
  return tx;
}

/** A resolver over tables held in memory; `deactivated` and `truncate` stand for tables gone bad. */
export function tablesResolver(
  tables: readonly AddressLookupTableAccount[],
  change: { deactivated?: boolean; length?: number; missing?: boolean; invalid?: boolean } = {},
): LookupTableResolver {
  return (requests) =>
    Promise.resolve(
      requests.map((r) => {
        const t = tables.find((x) => x.key.toBase58() === r.address);
        if (!t || change.missing) return 'missing';
        if (change.invalid) return 'invalid';
        const addresses = t.state.addresses.map((k) => k.toBase58()).slice(0, change.length ?? t.state.addresses.length);
        return { address: r.address, addresses, deactivationSlot: change.deactivated ? 1_000n : 2n ** 64n - 1n, lastExtendedSlot: 0 };
      }),
    );
}

export { AddressLookupTableAccount };
