/**
 * Hostile variants of the transactions the simulator hands out: what a compromised or buggy API
 * could answer instead. A `hostile` fault rewrites the `transaction` of the next matching answers
 * with one of these. The tampered bytes are registered with the same effect as the genuine ones, so
 * a client that signed one would see it land: the transaction guard is the only thing in the way,
 * and the guard's tests feed it every variant. The simulator re-signs the slots of keys it holds
 * (its gas payers and co-signers), as a server in control of those keys could.
 */
import { createHash } from 'node:crypto';
import {
  type AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import nacl from 'tweetnacl';
import { associatedTokenAddress, ProgramId } from './programIds.js';

export const HOSTILE_VARIANTS = [
  // Jupiter v6 routes.
  'route-destination-stranger',
  'route-user-destination-stranger',
  'route-trailing-bytes',
  'route-in-amount-larger',
  'route-slippage-high',
  'route-quoted-out-low',
  'route-platform-fee-stranger',
  'route-fee-raised',
  'route-fee-undeclared',
  'route-unknown-venue',
  'rfq-fee-doubled',
  'route-destination-behind-table',
  'venue-drain',
  // Any transaction of ours.
  'fee-payer-swapped',
  'extra-signer',
  'transfer-to-stranger',
  'approve-delegate',
  'close-to-stranger',
  'table-deactivated',
  'table-short',
  'payer-signature-invalid',
  'gasless-overcharge',
  // Prediction orders and claims.
  'prediction-buy-for-sell',
  'prediction-lower-floor',
  'prediction-more-contracts',
  'prediction-side-flipped',
  'prediction-order-id',
  'prediction-other-position',
  'prediction-funds-stranger',
  'prediction-cosigner-invalid',
] as const;
export type HostileVariant = (typeof HOSTILE_VARIANTS)[number];

export interface HostileContext {
  /** The world's lookup table at an address, for decompiling. */
  readonly table: (address: string) => AddressLookupTableAccount | undefined;
  /** A fresh table holding `addresses`, deactivated or cut short when asked. */
  readonly newTable: (label: string, addresses: readonly PublicKey[], change?: { deactivated?: boolean; length?: number }) => AddressLookupTableAccount;
  /** Keys whose slots the simulator may fill again (its gas payers and co-signers). */
  readonly signers: readonly Keypair[];
  /** Registers for `tampered` the effect the genuine message had. */
  readonly alias: (genuine: Uint8Array, tampered: Uint8Array) => void;
  /** Makes the message's effect also move `lamports` of SOL from `from` to a stranger; false when it has no effect registered. */
  readonly drain: (message: Uint8Array, from: PublicKey, lamports: bigint) => boolean;
}

const STRANGER = Keypair.fromSeed(createHash('sha256').update('jupbot-sim:hostile-stranger').digest());
export const HOSTILE_STRANGER = STRANGER.publicKey;
const disc = (name: string): string => createHash('sha256').update(`global:${name}`).digest().subarray(0, 8).toString('hex');
const ORDER = '8d3625cfedd2fad7';
/** The fixed tail of the older routes' arguments: in_amount u64, quoted_out_amount u64, slippage_bps u16, platform_fee_bps u8. */
const TAIL = 19;

/** What the `venue-drain` variant's venue takes from the taker's SOL besides the swap (2 SOL). */
export const VENUE_DRAIN_LAMPORTS = 2_000_000_000n;

export class NotApplicable extends Error {
  override name = 'NotApplicable';
}

const hex8 = (ix: TransactionInstruction): string => ix.data.subarray(0, 8).toString('hex');

function withAccount(ix: TransactionInstruction, index: number, pubkey: PublicKey, writable?: boolean): TransactionInstruction {
  return new TransactionInstruction({
    programId: ix.programId,
    keys: ix.keys.map((k, i) => (i === index ? { ...k, pubkey, isWritable: writable ?? k.isWritable } : k)),
    data: ix.data,
  });
}

/**
 * Where each Aggregator v6 route form keeps what a tamperer changes: accounts by position (from the
 * IDL), and the amounts either at the front (`*_v2`) or in the fixed tail after the plan (older forms).
 */
interface RouteLayout {
  readonly name: string;
  readonly v2: boolean;
  readonly shared: boolean;
  readonly destinationAt: number;
  /** The user's own output account (the program's output account in the shared forms). */
  readonly userDestinationAt: number;
  readonly destinationMintAt: number;
  readonly feeAccountAt: number | null;
}
type RouteField = 'in' | 'quoted' | 'slippage' | 'fee' | 'firstVariant';

const ROUTES = new Map<string, RouteLayout>(
  (
    [
      { name: 'route', v2: false, shared: false, destinationAt: 4, userDestinationAt: 3, destinationMintAt: 5, feeAccountAt: 6 },
      { name: 'shared_accounts_route', v2: false, shared: true, destinationAt: 6, userDestinationAt: 5, destinationMintAt: 8, feeAccountAt: 9 },
      { name: 'route_v2', v2: true, shared: false, destinationAt: 7, userDestinationAt: 2, destinationMintAt: 4, feeAccountAt: null },
      { name: 'shared_accounts_route_v2', v2: true, shared: true, destinationAt: 5, userDestinationAt: 4, destinationMintAt: 7, feeAccountAt: null },
    ] as const
  ).map((layout) => [disc(layout.name), layout]),
);

function fieldOffset(layout: RouteLayout, field: RouteField, length: number): number {
  const start = 8 + (layout.shared ? 1 : 0);
  if (layout.v2) return start + { in: 0, quoted: 8, slippage: 16, fee: 18, firstVariant: 26 }[field];
  // The older forms: the plan first (its u32 length, then the first step), the fixed tail last.
  if (field === 'firstVariant') return start + 4;
  return length - TAIL + { in: 0, quoted: 8, slippage: 16, fee: 18 }[field];
}

function withData(ix: TransactionInstruction, edit: (data: Buffer) => Buffer): TransactionInstruction {
  return new TransactionInstruction({ programId: ix.programId, keys: ix.keys, data: edit(Buffer.from(ix.data)) });
}

/** The order instruction's field offsets (two Borsh strings first). */
function orderOffsets(data: Buffer): { id: number; isYes: number; isBuy: number; contracts: number; price: number } {
  const idLength = data.readUInt32LE(8);
  const hashAt = 12 + idLength;
  const isYes = hashAt + 4 + data.readUInt32LE(hashAt);
  return { id: 12, isYes, isBuy: isYes + 1, contracts: isYes + 2, price: isYes + 10 };
}

/** Rewrites `base64` into the hostile `variant`; throws {@link NotApplicable} when it has nothing to tamper with. */
export function tamper(variant: HostileVariant, base64: string, ctx: HostileContext): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  const message = tx.message;
  const tables = message.addressTableLookups.map((l) => {
    const table = ctx.table(l.accountKey.toBase58());
    if (!table) throw new NotApplicable(`lookup table ${l.accountKey.toBase58()} unknown`);
    return table;
  });
  const decompiled = TransactionMessage.decompile(message, { addressLookupTableAccounts: tables });
  let payer = decompiled.payerKey;
  const instructions = [...decompiled.instructions];
  let useTables = tables;
  const signersBefore = message.staticAccountKeys.slice(0, message.header.numRequiredSignatures);
  const signedBefore = signersBefore.filter((_, i) => (tx.signatures[i] ?? new Uint8Array(64)).some((b) => b !== 0));
  const held = (k: PublicKey): boolean => ctx.signers.some((s) => s.publicKey.equals(k));
  // The taker: the first signer with an empty slot that is not one of the simulator's own keys.
  const owner = signersBefore.find((k, i) => !held(k) && !(tx.signatures[i] ?? new Uint8Array(64)).some((b) => b !== 0)) ?? payer;
  const find = (test: (ix: TransactionInstruction) => boolean): number => {
    const i = instructions.findIndex(test);
    if (i < 0) throw new NotApplicable(`${variant}: no instruction to tamper with`);
    return i;
  };
  const route = (): number => find((ix) => ix.programId.equals(ProgramId.jupiterAggregatorV6) && ROUTES.has(hex8(ix)));
  const layoutOf = (i: number): RouteLayout => ROUTES.get(hex8(instructions[i] as TransactionInstruction)) as RouteLayout;
  /** Edits the route's data; `at` gives the offset of a field in this route's layout. */
  const editRoute = (change: (d: Buffer, at: (field: RouteField) => number, layout: RouteLayout) => void): void => {
    const i = route();
    const layout = layoutOf(i);
    edit(
      i,
      withData(instructions[i] as TransactionInstruction, (d) => {
        change(d, (field) => fieldOffset(layout, field, d.length), layout);
        return d;
      }),
    );
  };
  const order = (): number => find((ix) => ix.programId.equals(ProgramId.jupiterPrediction) && hex8(ix) === ORDER);
  const prediction = (): number => find((ix) => ix.programId.equals(ProgramId.jupiterPrediction));
  const edit = (i: number, next: TransactionInstruction): void => {
    instructions[i] = next;
  };
  const strangerAta = (mint: PublicKey): PublicKey => associatedTokenAddress(STRANGER.publicKey, mint);
  let breakSlot: PublicKey | null = null;

  // The bytes are the genuine ones; what their venue does is not: only a simulation shows it.
  if (variant === 'venue-drain') {
    route();
    if (!ctx.drain(message.serialize(), owner, VENUE_DRAIN_LAMPORTS)) throw new NotApplicable('venue-drain: no effect registered for the transaction');
    return base64;
  }

  switch (variant) {
    case 'route-destination-stranger':
    case 'route-user-destination-stranger': {
      const i = route();
      const layout = layoutOf(i);
      const ix = instructions[i] as TransactionInstruction;
      const mint = (ix.keys[layout.destinationMintAt] as { pubkey: PublicKey }).pubkey;
      const at = variant === 'route-destination-stranger' ? layout.destinationAt : layout.userDestinationAt;
      edit(i, withAccount(ix, at, strangerAta(mint), true));
      break;
    }
    case 'route-destination-behind-table': {
      const i = route();
      const layout = layoutOf(i);
      const ix = instructions[i] as TransactionInstruction;
      const hidden = strangerAta((ix.keys[layout.destinationMintAt] as { pubkey: PublicKey }).pubkey);
      useTables = [...tables, ctx.newTable('hostile-destination', [hidden])];
      edit(i, withAccount(ix, layout.destinationAt, hidden, true));
      break;
    }
    case 'route-trailing-bytes': {
      const i = route();
      // A larger "amount" where a reader from the end would look for in_amount.
      edit(
        i,
        withData(instructions[i] as TransactionInstruction, (d) =>
          Buffer.concat([d, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0]), Buffer.alloc(TAIL - 8)]),
        ),
      );
      break;
    }
    case 'route-in-amount-larger':
      editRoute((d, at) => d.writeBigUInt64LE(d.readBigUInt64LE(at('in')) * 2n, at('in')));
      break;
    case 'route-slippage-high':
      editRoute((d, at) => d.writeUInt16LE(5_000, at('slippage')));
      break;
    case 'route-quoted-out-low':
      editRoute((d, at) => d.writeBigUInt64LE(d.readBigUInt64LE(at('quoted')) / 2n, at('quoted')));
      break;
    case 'route-fee-raised':
      // 100 bps more than the answer declared, into whatever the route pays its fee to.
      editRoute((d, at, layout) =>
        layout.v2 ? d.writeUInt16LE(d.readUInt16LE(at('fee')) + 100, at('fee')) : d.writeUInt8(Math.min(255, d.readUInt8(at('fee')) + 100), at('fee')),
      );
      break;
    case 'route-platform-fee-stranger': {
      const i = route();
      const layout = layoutOf(i);
      if (layout.feeAccountAt === null) throw new NotApplicable(`${variant}: a ${layout.name} route has no fee account`);
      const ix = instructions[i] as TransactionInstruction;
      const strangerFee = strangerAta((ix.keys[layout.destinationMintAt] as { pubkey: PublicKey }).pubkey);
      edit(
        i,
        withData(
          withAccount(ix, layout.feeAccountAt, strangerFee, true),
          (d) => (d.writeUInt8(Math.min(255, d.readUInt8(fieldOffset(layout, 'fee', d.length)) + 100), fieldOffset(layout, 'fee', d.length)), d),
        ),
      );
      break;
    }
    case 'route-unknown-venue':
      // The first step's Swap variant: an index no table describes.
      editRoute((d, at) => d.writeUInt8(250, at('firstVariant')));
      break;
    case 'route-fee-undeclared':
      // The answer hides its fee (hostileAnswer.ts); the transaction stays as built.
      throw new NotApplicable(`${variant}: changes the answer, not the transaction`);
    case 'rfq-fee-doubled': {
      // Twice the fee an RFQ fill takes from the taker in SOL.
      const i = find(
        (ix) => ix.programId.equals(ProgramId.system) && ix.data.readUInt32LE(0) === 2 && (ix.keys[0] as { pubkey: PublicKey }).pubkey.equals(owner),
      );
      edit(
        i,
        withData(instructions[i] as TransactionInstruction, (d) => (d.writeBigUInt64LE(d.readBigUInt64LE(4) * 2n, 4), d)),
      );
      break;
    }
    case 'fee-payer-swapped':
      payer = STRANGER.publicKey;
      break;
    case 'extra-signer':
      instructions.push(
        new TransactionInstruction({
          programId: ProgramId.memo,
          keys: [{ pubkey: STRANGER.publicKey, isSigner: true, isWritable: false }],
          data: Buffer.from('hi'),
        }),
      );
      break;
    case 'transfer-to-stranger':
    case 'approve-delegate':
    case 'close-to-stranger': {
      const source = associatedTokenAddress(owner, new PublicKey('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'));
      const amount = Buffer.alloc(9);
      amount.writeUInt8(variant === 'transfer-to-stranger' ? 3 : 4, 0);
      amount.writeBigUInt64LE(1_000_000n, 1);
      const keys =
        variant === 'close-to-stranger'
          ? [
              { pubkey: source, isSigner: false, isWritable: true },
              { pubkey: STRANGER.publicKey, isSigner: false, isWritable: true },
              { pubkey: owner, isSigner: true, isWritable: false },
            ]
          : [
              { pubkey: source, isSigner: false, isWritable: true },
              {
                pubkey: variant === 'transfer-to-stranger' ? strangerAta(new PublicKey('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')) : STRANGER.publicKey,
                isSigner: false,
                isWritable: variant === 'transfer-to-stranger',
              },
              { pubkey: owner, isSigner: true, isWritable: false },
            ];
      instructions.push(new TransactionInstruction({ programId: ProgramId.token, keys, data: variant === 'close-to-stranger' ? Buffer.from([9]) : amount }));
      break;
    }
    case 'table-deactivated':
    case 'table-short': {
      const first = tables[0];
      if (!first) throw new NotApplicable(`${variant}: the transaction uses no lookup table`);
      const copy = ctx.newTable(`hostile-${variant}`, first.state.addresses, variant === 'table-deactivated' ? { deactivated: true } : { length: 0 });
      // Same addresses under a table gone bad: compiled against the full copy, served cut short or deactivated.
      useTables = [new (first.constructor as typeof AddressLookupTableAccount)({ key: copy.key, state: { ...first.state } }), ...tables.slice(1)];
      break;
    }
    case 'payer-signature-invalid':
    case 'prediction-cosigner-invalid': {
      // A payer that would sign after the taker gets a spoiled signature in its slot now.
      const target =
        variant === 'payer-signature-invalid'
          ? held(payer) && !payer.equals(owner)
            ? payer
            : undefined
          : signedBefore.filter(held).find((k) => !k.equals(payer));
      if (!target) throw new NotApplicable(`${variant}: no slot of the simulator's to spoil`);
      breakSlot = target;
      break;
    }
    case 'gasless-overcharge':
      if (payer.equals(owner)) throw new NotApplicable('gasless-overcharge: the owner pays this transaction');
      instructions.push(SystemProgram.transfer({ fromPubkey: owner, toPubkey: payer, lamports: 50_000_000n }));
      break;
    case 'prediction-buy-for-sell':
      edit(
        order(),
        withData(instructions[order()] as TransactionInstruction, (d) => (d.writeUInt8(1, orderOffsets(d).isBuy), d)),
      );
      break;
    case 'prediction-side-flipped':
      edit(
        order(),
        withData(instructions[order()] as TransactionInstruction, (d) => (d.writeUInt8(d.readUInt8(orderOffsets(d).isYes) ^ 1, orderOffsets(d).isYes), d)),
      );
      break;
    case 'prediction-lower-floor':
      edit(
        order(),
        withData(
          instructions[order()] as TransactionInstruction,
          (d) => (d.writeBigUInt64LE(d.readBigUInt64LE(orderOffsets(d).price) / 2n, orderOffsets(d).price), d),
        ),
      );
      break;
    case 'prediction-more-contracts':
      edit(
        order(),
        withData(
          instructions[order()] as TransactionInstruction,
          (d) => (d.writeBigUInt64LE(d.readBigUInt64LE(orderOffsets(d).contracts) * 2n, orderOffsets(d).contracts), d),
        ),
      );
      break;
    case 'prediction-order-id':
      edit(
        order(),
        withData(instructions[order()] as TransactionInstruction, (d) => (d.writeUInt8(d.readUInt8(orderOffsets(d).id) ^ 1, orderOffsets(d).id), d)),
      );
      break;
    case 'prediction-other-position': {
      const i = prediction();
      edit(
        i,
        withAccount(
          instructions[i] as TransactionInstruction,
          4,
          Keypair.fromSeed(createHash('sha256').update('jupbot-sim:hostile-position').digest()).publicKey,
        ),
      );
      break;
    }
    case 'prediction-funds-stranger': {
      const i = prediction();
      const ix = instructions[i] as TransactionInstruction;
      const fundingAt = hex8(ix) === ORDER ? 6 : 5;
      const mint = (ix.keys[fundingAt + 1] as { pubkey: PublicKey }).pubkey;
      edit(i, withAccount(ix, fundingAt, strangerAta(mint)));
      break;
    }
  }

  const next = new TransactionMessage({ payerKey: payer, recentBlockhash: decompiled.recentBlockhash, instructions }).compileToV0Message(useTables);
  const out = new VersionedTransaction(next);
  const bytes = next.serialize();
  const keys = next.staticAccountKeys.slice(0, next.header.numRequiredSignatures);
  keys.forEach((key, i) => {
    const signer =
      ctx.signers.find((s) => s.publicKey.equals(key)) ?? (key.equals(STRANGER.publicKey) && variant === 'fee-payer-swapped' ? STRANGER : undefined);
    if (!signer) return;
    if (!signedBefore.some((k) => k.equals(key)) && variant !== 'fee-payer-swapped' && !breakSlot?.equals(key)) return;
    const signature = nacl.sign.detached(bytes, signer.secretKey);
    if (breakSlot?.equals(key)) signature[7] = (signature[7] ?? 0) ^ 1;
    out.signatures[i] = signature;
  });
  ctx.alias(message.serialize(), bytes);
  return Buffer.from(out.serialize()).toString('base64');
}
