/**
 * A wallet's past on the Trigger service: orders it placed and ended before the simulated world began,
 * as a long-used wallet brings to the daemon. Each was funded, then cancelled a minute later with its
 * deposit withdrawn, so it holds nothing: only history lists it, and the ledger is untouched. They
 * are spread over the 30 days before the last hour, oldest first, with ids and signatures derived
 * from the seed (no random stream moves, so the world after them is the world without them).
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { SimWorld } from '../world.js';
import type { DcaOrder } from './dca.js';
import type { PriceOrder } from './priceOrder.js';

export type PastFamily = 'price' | 'dca';

export interface PastOrdersSpec {
  readonly wallet: string;
  readonly vault: string;
  readonly family: PastFamily;
  readonly count: number;
  readonly inputMint: string;
  readonly outputMint: string;
}

const SPAN_MS = 30 * 86_400_000;
const LAST_HOUR_MS = 3_600_000;
/** Each was cancelled this long after it was created. */
const LIVED_MS = 60_000;

function digest(world: SimWorld, spec: PastOrdersSpec, i: number, what: string): Buffer {
  return createHash('sha512').update(`${world.seed}:past:${spec.wallet}:${spec.family}:${spec.inputMint}:${spec.outputMint}:${i}:${what}`).digest();
}

function uuid(bytes: Buffer): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** When the `i`-th of `count` past orders was created (the newest an hour before `now`). */
function createdAt(now: number, i: number, count: number): number {
  const spacing = Math.max(1_000, Math.floor(SPAN_MS / Math.max(1, count)));
  return now - LAST_HOUR_MS - (count - 1 - i) * spacing;
}

/** `spec.count` ended price orders (single take-profits, cancelled), oldest first. */
export function pastPriceOrders(world: SimWorld, spec: PastOrdersSpec, now: number): PriceOrder[] {
  const amount = world.market.amountForUsd(spec.inputMint, 20);
  const price = world.market.price(spec.inputMint);
  return Array.from({ length: spec.count }, (_, i) => {
    const at = createdAt(now, i, spec.count);
    const id = uuid(digest(world, spec, i, 'id'));
    const deposit = bs58.encode(digest(world, spec, i, 'deposit'));
    const withdrawal = bs58.encode(digest(world, spec, i, 'withdrawal'));
    const ended = at + LIVED_MS;
    return {
      id,
      groupId: id,
      orderType: 'single',
      parentId: null,
      wallet: spec.wallet,
      vault: spec.vault,
      inputMint: spec.inputMint,
      outputMint: spec.outputMint,
      triggerMint: spec.inputMint,
      triggerCondition: 'above',
      triggerPriceUsd: Math.round(price * 120) / 100,
      slippageBps: 100,
      trailingBps: null,
      highWatermark: null,
      lowWatermark: null,
      initialInputAmount: amount,
      funds: { remaining: 0n },
      expiresAt: at + 7 * 86_400_000,
      createdAt: at,
      updatedAt: ended,
      triggeredAt: null,
      outputAmount: 0n,
      inputUsed: 0n,
      rawState: 'cancelled',
      context: 'take_profit',
      events: [
        { type: 'deposit', timestamp: at, txSignature: deposit, state: 'success', mint: spec.inputMint, amount: amount.toString() },
        { type: 'withdrawal', timestamp: ended, txSignature: withdrawal, state: 'success', mint: spec.inputMint, amount: amount.toString() },
        { type: 'cancelled', timestamp: ended, txSignature: withdrawal, state: 'success' },
      ],
      children: null,
      requestKey: digest(world, spec, i, 'request').toString('hex'),
      depositSignature: deposit,
    };
  });
}

/** `spec.count` ended DCA orders (two daily rounds, cancelled before the first), oldest first. */
export function pastDcaOrders(world: SimWorld, spec: PastOrdersSpec, now: number): DcaOrder[] {
  const perRound = world.market.amountForUsd(spec.inputMint, 20);
  const iso = (ms: number): string => new Date(ms).toISOString();
  return Array.from({ length: spec.count }, (_, i) => {
    const at = createdAt(now, i, spec.count);
    const deposit = bs58.encode(digest(world, spec, i, 'deposit'));
    const withdrawal = bs58.encode(digest(world, spec, i, 'withdrawal'));
    const ended = at + LIVED_MS;
    return {
      id: uuid(digest(world, spec, i, 'id')),
      requestId: digest(world, spec, i, 'request').toString('hex').slice(0, 32),
      wallet: spec.wallet,
      vault: spec.vault,
      inputMint: spec.inputMint,
      outputMint: spec.outputMint,
      inputAmountInitial: perRound * 2n,
      inputAmountRemaining: perRound * 2n,
      amountPerRound: perRound,
      outputAmountTotal: 0n,
      inputAmountUsed: 0n,
      orderType: 'time_based',
      minPriceUsd: null,
      maxPriceUsd: null,
      triggerMint: null,
      numberOfRounds: 2,
      intervalSeconds: 86_400,
      beginFillAt: at + 86_400_000,
      nextFillAt: at + 86_400_000,
      lastFillAt: null,
      roundsFilled: 0,
      state: 'cancelled',
      createdAt: at,
      updatedAt: ended,
      events: [
        { type: 'deposit', timestamp: iso(at), txSignature: deposit, inputAmount: (perRound * 2n).toString(), state: 'success' },
        { type: 'withdrawal', timestamp: iso(ended), txSignature: withdrawal, inputAmount: (perRound * 2n).toString(), state: 'success' },
        { type: 'cancelled', timestamp: iso(ended), txSignature: withdrawal, state: 'success' },
      ],
      skips: 0,
    };
  });
}
