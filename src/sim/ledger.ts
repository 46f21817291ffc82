import { HttpError } from './http.js';
import { derivedAddress } from './programIds.js';

/** One change to one balance. Entries are append-only; `seq` orders them. */
export interface LedgerEntry {
  readonly seq: number;
  /** Simulated epoch ms. */
  readonly at: number;
  readonly wallet: string;
  readonly mint: string;
  /** Signed change in base units. */
  readonly delta: bigint;
  readonly balance: bigint;
  /** What moved it: `genesis`, `fund`, `swap`, `fee`, `deposit`, `withdrawal`, `prediction`, … */
  readonly reason: string;
  /** The transaction signature or order id the change belongs to. */
  readonly ref: string;
}

/** Wallets the simulator itself owns. Their balances make the supply of every mint add up. */
export const SystemWallet = {
  /** Holds each mint's whole supply at genesis; funding draws from it. */
  treasury: derivedAddress('jupbot-sim:treasury').toBase58(),
  /** The other side of every swap (the "market"). */
  liquidity: derivedAddress('jupbot-sim:liquidity').toBase58(),
  /** Receives every fee: platform fees, signature fees, prediction fees. */
  fees: derivedAddress('jupbot-sim:fees').toBase58(),
  /** Holds prediction-market collateral and pays winners. */
  predictionVault: derivedAddress('jupbot-sim:prediction-vault').toBase58(),
} as const;

export class InsufficientBalance extends Error {
  constructor(
    readonly wallet: string,
    readonly mint: string,
    readonly needed: bigint,
    readonly available: bigint,
  ) {
    super(`insufficient ${mint} in ${wallet}: need ${needed}, have ${available}`);
  }
}

export interface LedgerDump {
  balances: Record<string, Record<string, string>>;
  supply: Record<string, string>;
  entries: { seq: number; at: number; wallet: string; mint: string; delta: string; balance: string; reason: string; ref: string }[];
}

/**
 * Balances per wallet and mint: the single source of truth of the simulated world. Transactions are
 * only a way to ask for a change; what happened is what this ledger recorded. Every change is a
 * transfer between two wallets (genesis aside), so each mint's supply is conserved by construction,
 * and no balance can go negative.
 */
export class Ledger {
  readonly #balances = new Map<string, Map<string, bigint>>();
  readonly #genesis = new Map<string, bigint>();
  readonly #entries: LedgerEntry[] = [];

  constructor(private readonly now: () => number) {}

  balance(wallet: string, mint: string): bigint {
    return this.#balances.get(wallet)?.get(mint) ?? 0n;
  }

  /** Mints the initial supply into the treasury (or a system wallet); the only non-transfer change. */
  genesis(wallet: string, mint: string, amount: bigint): void {
    this.#genesis.set(mint, (this.#genesis.get(mint) ?? 0n) + amount);
    this.#apply(wallet, mint, amount, 'genesis', 'genesis');
  }

  /** Moves `amount` or throws InsufficientBalance without changing anything. */
  transfer(from: string, to: string, mint: string, amount: bigint, reason: string, ref: string): void {
    if (amount < 0n) throw new RangeError(`negative transfer ${amount}`);
    if (amount === 0n || from === to) return;
    const have = this.balance(from, mint);
    if (have < amount) throw new InsufficientBalance(from, mint, amount, have);
    this.#apply(from, mint, -amount, reason, ref);
    this.#apply(to, mint, amount, reason, ref);
  }

  /** Several transfers that all happen or none do. */
  batch(transfers: readonly { from: string; to: string; mint: string; amount: bigint }[], reason: string, ref: string): void {
    const need = new Map<string, bigint>();
    for (const t of transfers) {
      if (t.amount < 0n) throw new RangeError(`negative transfer ${t.amount}`);
      const key = `${t.from}\u0000${t.mint}`;
      need.set(key, (need.get(key) ?? 0n) + t.amount);
    }
    // Credits inside the batch are not counted: the check is conservative, which is what a chain does.
    for (const [key, amount] of need) {
      const [wallet, mint] = key.split('\u0000') as [string, string];
      const have = this.balance(wallet, mint);
      if (have < amount) throw new InsufficientBalance(wallet, mint, amount, have);
    }
    for (const t of transfers) this.transfer(t.from, t.to, t.mint, t.amount, reason, ref);
  }

  get entryCount(): number {
    return this.#entries.length;
  }

  entries(): readonly LedgerEntry[] {
    return this.#entries;
  }

  /** Sum of all balances of `mint`; equals its genesis supply unless something is broken. */
  supply(mint: string): bigint {
    let total = 0n;
    for (const byMint of this.#balances.values()) total += byMint.get(mint) ?? 0n;
    return total;
  }

  genesisSupply(mint: string): bigint {
    return this.#genesis.get(mint) ?? 0n;
  }

  /** Balances sorted by wallet then mint, so the dump is byte-stable. */
  dump(options: { entries?: boolean } = {}): LedgerDump {
    const balances: Record<string, Record<string, string>> = {};
    for (const wallet of [...this.#balances.keys()].sort()) {
      const byMint = this.#balances.get(wallet) as Map<string, bigint>;
      const row: Record<string, string> = {};
      for (const mint of [...byMint.keys()].sort()) row[mint] = (byMint.get(mint) as bigint).toString();
      balances[wallet] = row;
    }
    const supply: Record<string, string> = {};
    for (const mint of [...this.#genesis.keys()].sort()) supply[mint] = this.supply(mint).toString();
    const entries = options.entries === false ? [] : this.#entries.map((e) => ({ ...e, delta: e.delta.toString(), balance: e.balance.toString() }));
    return { balances, supply, entries };
  }

  #apply(wallet: string, mint: string, delta: bigint, reason: string, ref: string): void {
    let byMint = this.#balances.get(wallet);
    if (!byMint) {
      byMint = new Map();
      this.#balances.set(wallet, byMint);
    }
    const balance = (byMint.get(mint) ?? 0n) + delta;
    if (balance < 0n) throw new HttpError(500, { error: `ledger invariant: ${wallet} ${mint} would be ${balance}` });
    byMint.set(mint, balance);
    this.#entries.push({ seq: this.#entries.length + 1, at: this.now(), wallet, mint, delta, balance, reason, ref });
  }
}
