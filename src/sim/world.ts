import type { Keypair, PublicKey } from '@solana/web3.js';
import type { AggregatorIdlKind } from './aggregatorIdl.js';
import type { SwapRouting } from './swapRoute.js';
import type { LookupTables } from './lookupTables.js';
import type { Random } from '../random.js';
import type { Chain } from './chain.js';
import type { IdSource } from './ids.js';
import type { Ledger } from './ledger.js';
import type { Market } from './market.js';

/** The shared state every area of the simulator reads and changes. */
export interface SimWorld {
  /** Simulated epoch ms: the step's instant while catching up, the clock's otherwise. */
  readonly now: () => number;
  readonly seed: string;
  readonly ids: IdSource;
  readonly ledger: Ledger;
  readonly market: Market;
  readonly chain: Chain;
  /** Randomness for world events (fills, games, settlements); ids and prices have their own streams. */
  readonly random: Random;
  /** Address lookup tables the transactions load accounts through (served over the RPC). */
  readonly lookupTables: LookupTables;
  /** Stands in for Jupiter's swap gas wallet: pays gasless swaps and signs them at /execute, after the taker. */
  readonly gasWallet: Keypair;
  /** Owns the accounts Jupiter's fees are paid into (an RFQ fill's wrapped-SOL fee account, an older route's fee account). */
  readonly feeOwner: PublicKey;
  /** How /order routes: a test knob, like the fault table. */
  readonly routing: SwapRouting;
  /** What the aggregator's on-chain IDL account holds: a test knob (`published` by default). */
  aggregatorIdl: AggregatorIdlKind;
}

/** Something that moves with time: called once per fixed step, in registration order. */
export type Stepper = (stepTime: number, stepMs: number) => void;

/**
 * Catches the world up to the clock in fixed steps, so what happens depends only on the seed and on
 * the instants requests arrive, never on how often anyone looked.
 */
export class Clockwork {
  readonly #steppers: Stepper[] = [];
  #last: number;
  #current: number | undefined;

  constructor(
    private readonly clockNow: () => number,
    readonly stepMs = 1000,
  ) {
    this.#last = clockNow();
  }

  /** World time: the current step's instant during catch-up, else the clock. */
  readonly now = (): number => this.#current ?? this.clockNow();

  /**
   * Runs `fn` with world time held at `t` (the instant a request or control action arrived): time
   * must not move while one input is applied, or its effect would depend on how long it took, and
   * a replay at `t` would not reproduce it.
   */
  at<T>(t: number, fn: () => T): T {
    if (this.#current !== undefined) return fn();
    this.#current = t;
    try {
      return fn();
    } finally {
      this.#current = undefined;
    }
  }

  add(stepper: Stepper): void {
    this.#steppers.push(stepper);
  }

  catchUp(): void {
    if (this.#current !== undefined) return;
    const target = this.clockNow();
    try {
      while (this.#last + this.stepMs <= target) {
        this.#last += this.stepMs;
        this.#current = this.#last;
        for (const stepper of this.#steppers) stepper(this.#last, this.stepMs);
      }
    } finally {
      this.#current = undefined;
    }
  }
}
