/**
 * Aggregator v6 swap instructions as the program lays them out, in the four ExactIn forms a route
 * comes in. `route_v2` and `shared_accounts_route_v2` are what Swap V2 / Ultra `/order` builds: the
 * amounts, slippage, Jupiter's fee (u16 basis points) and positive slippage come first, then the
 * plan, whose steps take a share in basis points; there is no fee account. The older `route` and
 * `shared_accounts_route` put the plan first and the amounts after it, take a percent per step, and
 * pay a fee (u8 basis points) into a fee account. Venue accounts follow the IDL's, as remaining
 * accounts (the simulator puts them behind a lookup table).
 */
import { createHash } from 'node:crypto';
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { ProgramId, pubkey } from './programIds.js';

export const ROUTE_FORMS = ['route_v2', 'shared_accounts_route_v2', 'route', 'shared_accounts_route'] as const;
export type RouteForm = (typeof ROUTE_FORMS)[number];

/** Jupiter's Anchor event authority: the PDA of "__event_authority" under Aggregator v6. */
export const JUPITER_EVENT_AUTHORITY = pubkey(
  PublicKey.findProgramAddressSync([Buffer.from('__event_authority')], ProgramId.jupiterAggregatorV6)[0].toBase58(),
);

const authorities = new Map<number, PublicKey>();

/** The shared-accounts forms' program authority for `id`: the PDA of ["authority", id]. */
export function programAuthority(id: number): PublicKey {
  let key = authorities.get(id);
  if (!key) {
    key = pubkey(PublicKey.findProgramAddressSync([Buffer.from('authority'), Buffer.from([id])], ProgramId.jupiterAggregatorV6)[0].toBase58());
    authorities.set(id, key);
  }
  return key;
}

export interface RoutePlanStep {
  /** The venue's `Swap` variant index and the bytes of its fields. */
  readonly variant: number;
  readonly fields: readonly number[];
  /** Share of the step's input token, in basis points (the older forms write it as a percent). */
  readonly bps: number;
  readonly inputIndex: number;
  readonly outputIndex: number;
}

export interface RouteParams {
  readonly form: RouteForm;
  readonly taker: PublicKey;
  /** The taker's token accounts of the input and the output. */
  readonly source: PublicKey;
  readonly userDestination: PublicKey;
  /** Where the output goes instead (a receiver's account); null for none. */
  readonly destination: PublicKey | null;
  readonly sourceMint: PublicKey;
  readonly destinationMint: PublicKey;
  /** For the shared forms: the program authority's id and its token accounts of input and output. */
  readonly sharedId: number;
  readonly programSource: PublicKey;
  readonly programDestination: PublicKey;
  /** The older forms' fee account (null: none). */
  readonly feeAccount: PublicKey | null;
  readonly steps: readonly RoutePlanStep[];
  readonly inAmount: bigint;
  readonly quotedOut: bigint;
  readonly slippageBps: number;
  readonly feeBps: number;
  readonly positiveSlippageBps: number;
  readonly venues: readonly PublicKey[];
}

const discriminator = (name: string): Buffer => createHash('sha256').update(`global:${name}`).digest().subarray(0, 8);
const DISCRIMINATORS = new Map(ROUTE_FORMS.map((form) => [form, discriminator(form)]));

function plan(steps: readonly RoutePlanStep[], v2: boolean): Buffer {
  const parts = [Buffer.alloc(4)];
  (parts[0] as Buffer).writeUInt32LE(steps.length);
  for (const s of steps) {
    const share = v2 ? Buffer.alloc(2) : Buffer.alloc(1);
    if (v2) share.writeUInt16LE(s.bps);
    else share.writeUInt8(Math.round(s.bps / 100));
    parts.push(Buffer.from([s.variant, ...s.fields]), share, Buffer.from([s.inputIndex, s.outputIndex]));
  }
  return Buffer.concat(parts);
}

function amounts(p: RouteParams, v2: boolean): Buffer {
  const b = Buffer.alloc(v2 ? 8 + 8 + 2 + 2 + 2 : 8 + 8 + 2 + 1);
  b.writeBigUInt64LE(p.inAmount, 0);
  b.writeBigUInt64LE(p.quotedOut, 8);
  b.writeUInt16LE(p.slippageBps, 16);
  if (v2) {
    b.writeUInt16LE(p.feeBps, 18);
    b.writeUInt16LE(p.positiveSlippageBps, 20);
  } else {
    b.writeUInt8(p.feeBps, 18);
  }
  return b;
}

const meta = (key: PublicKey, isWritable = false, isSigner = false): { pubkey: PublicKey; isSigner: boolean; isWritable: boolean } => ({
  pubkey: key,
  isSigner,
  isWritable,
});

/** The route instruction in `p.form`. */
export function jupiterRouteInstruction(p: RouteParams): TransactionInstruction {
  const jup = ProgramId.jupiterAggregatorV6;
  const v2 = p.form === 'route_v2' || p.form === 'shared_accounts_route_v2';
  const shared = p.form === 'shared_accounts_route' || p.form === 'shared_accounts_route_v2';
  const head = DISCRIMINATORS.get(p.form) as Buffer;
  const id = Buffer.from([p.sharedId]);
  const data = v2
    ? Buffer.concat([head, ...(shared ? [id] : []), amounts(p, true), plan(p.steps, true)])
    : Buffer.concat([head, ...(shared ? [id] : []), plan(p.steps, false), amounts(p, false)]);
  const destination = p.destination ?? (shared ? p.userDestination : null);
  const optional = (key: PublicKey | null): ReturnType<typeof meta> => meta(key ?? jup, key !== null);
  let keys: ReturnType<typeof meta>[];
  switch (p.form) {
    case 'route_v2':
      keys = [
        meta(p.taker, false, true),
        meta(p.source, true),
        meta(p.userDestination, true),
        meta(p.sourceMint),
        meta(p.destinationMint),
        meta(ProgramId.token),
        meta(ProgramId.token),
        optional(destination),
      ];
      break;
    case 'shared_accounts_route_v2':
      keys = [
        meta(programAuthority(p.sharedId)),
        meta(p.taker, false, true),
        meta(p.source, true),
        meta(p.programSource, true),
        meta(p.programDestination, true),
        meta(destination as PublicKey, true),
        meta(p.sourceMint),
        meta(p.destinationMint),
        meta(ProgramId.token),
        meta(ProgramId.token),
      ];
      break;
    case 'route':
      keys = [
        meta(ProgramId.token),
        meta(p.taker, false, true),
        meta(p.source, true),
        meta(p.userDestination, true),
        optional(destination),
        meta(p.destinationMint),
        optional(p.feeAccount),
      ];
      break;
    case 'shared_accounts_route':
      keys = [
        meta(ProgramId.token),
        meta(programAuthority(p.sharedId)),
        meta(p.taker, false, true),
        meta(p.source, true),
        meta(p.programSource, true),
        meta(p.programDestination, true),
        meta(destination as PublicKey, true),
        meta(p.sourceMint),
        meta(p.destinationMint),
        optional(p.feeAccount),
        meta(jup),
      ];
      break;
  }
  return new TransactionInstruction({
    programId: jup,
    keys: [...keys, meta(JUPITER_EVENT_AUTHORITY), meta(jup), ...p.venues.map((v) => meta(v, true))],
    data,
  });
}
