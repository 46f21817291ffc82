/**
 * The wallet balances feed: what the strategies may spend, read from the chain through the Solana
 * RPC (the simulator's `/rpc` in paper mode, `rpc.url` live) on the injected clock. SOL is the
 * native balance plus any wrapped-SOL token accounts, keyed by the wSOL mint as strategies name it;
 * every SPL token account of both token programs is summed by mint. A failed poll keeps the last
 * map with its age, like every feed, so the tick can refuse to act on balances that are too old.
 */
import type { Clock } from '../../clock.js';
import type { Logger } from '../../ops/log.js';
import { SOL_MINT, TOKEN_PROGRAMS } from '../../solana/programIds.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { createPoller, type Poller } from './poller.js';

/** Lamports per SOL: the native balance and wrapped SOL are both counted in them. */
const SOL_DECIMALS = 9;

/** Base units by mint, and when the read began (wall time, kept with each audited wallet reading). */
export interface Balances {
  readonly readAt: number;
  readonly byMint: ReadonlyMap<string, bigint>;
  /**
   * Each mint's decimals as the read found them (a token account says its mint's), so the audit
   * records a balance in whole tokens without asking anyone else. Every mint of `byMint` has one.
   */
  readonly decimals: ReadonlyMap<string, number>;
}

export interface BalancesFeedOptions {
  readonly rpc: SolanaRpc;
  readonly clock: Clock;
  /** The wallet's public key (base58). */
  readonly wallet: string;
  readonly intervalMs: number;
  readonly log?: Logger | undefined;
  /** @default 'balances' */
  readonly name?: string;
}

export function createBalancesFeed(options: BalancesFeedOptions): Poller<Balances> {
  const { rpc, wallet } = options;
  return createPoller<Balances>({
    name: options.name ?? 'balances',
    intervalMs: options.intervalMs,
    clock: options.clock,
    log: options.log,
    async poll() {
      const readAt = options.clock.now();
      const out = new Map<string, bigint>([[SOL_MINT, await rpc.getBalance(wallet)]]);
      const decimals = new Map<string, number>([[SOL_MINT, SOL_DECIMALS]]);
      for (const program of TOKEN_PROGRAMS) {
        for (const account of await rpc.getTokenAccountsByOwner(wallet, { programId: program.toBase58() })) {
          out.set(account.mint, (out.get(account.mint) ?? 0n) + account.amount);
          decimals.set(account.mint, account.decimals);
        }
      }
      return { readAt, byMint: out, decimals };
    },
  });
}
