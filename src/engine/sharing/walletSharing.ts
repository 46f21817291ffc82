/**
 * What the daemon does when someone else trades its wallet: the evidence from the wallet's history
 * (walletHistory.ts: a Jupiter transaction the wallet signed and the journal did not make) and from
 * adoption (orderArrivals.ts: a Trigger order no intent of ours funded, created while the daemon
 * runs), weighed against `wallet.shared`.
 *
 * With `wallet.shared: false` (the default: the wallet is this daemon's alone):
 * - a Trigger order created while the daemon runs stops it at once: placing a vault order takes a
 *   login, a deposit and an order, which a person does in Jupiter's interface only on purpose, and
 *   is exactly what another jupbot with the same strategies does;
 * - one foreign Jupiter transaction is taken for a one-off manual trade: a warning (log, webhook,
 *   audit row), and trading goes on;
 * - a second one while the daemon runs stops it: a repeated pattern (a DCA schedule, a price rule) is
 *   another trader, most likely another jupbot on another host or with another `lock_dir`.
 * Stopping means: no new intent from this moment (what is in flight stays in the journal for the
 * next start to settle), one `wallet.foreign_activity` action (error line, webhook), `/readyz`
 * failing with the evidence, and the daemon exiting with WALLET_SHARED (77), which the service
 * manager does not restart: a restart would only meet the other trader again.
 *
 * With `wallet.shared: true` nothing of this applies: foreign orders are adopted as they always were
 * and the wallet's history is not watched.
 */
import type { ReadinessCheck } from '../../ops/opsServer.js';
import { WalletError } from '../../solana/walletError.js';
import type { AuditLog } from '../../store/audit.js';
import type { ForeignTransaction } from './foreignTransaction.js';
import type { ArrivedOrder } from './orderArrivals.js';

export type ForeignEvidence = ({ readonly kind: 'transaction' } & ForeignTransaction) | ({ readonly kind: 'order' } & ArrivedOrder);

export interface WalletSharingOptions {
  readonly wallet: string;
  readonly instanceId: string;
  readonly dataDir: string;
  /** `wallet.shared`: others trade this wallet on purpose; nothing is reported. */
  readonly shared: boolean;
  /** When the daemon started (UTC epoch ms): what "while it runs" means. */
  readonly startedAt: number;
  readonly audit: AuditLog;
  /** Called once when the evidence says stop: the error the daemon ends with, and the evidence in a few words. */
  readonly onStop: (error: WalletError, summary: string) => void;
}

export interface WalletSharing {
  /** One piece of evidence: a foreign transaction or an order created while the daemon runs. */
  report(evidence: ForeignEvidence): void;
  /** `/readyz`'s `wallet` check: fails once another trader stopped the daemon. */
  readiness(): ReadinessCheck;
}

const iso = (ms: number | null): string => (ms === null ? 'an unknown time' : new Date(ms).toISOString());
const TRADE_WORDS = { swap: 'Jupiter swap', prediction: 'Jupiter prediction order' } as const;

/** The evidence in a few words, for the stop's reason and the webhook. */
function summary(e: ForeignEvidence): string {
  if (e.kind === 'order') return `Trigger ${e.family} order ${e.orderId} created at ${iso(e.createdAt)}`;
  return `${TRADE_WORDS[e.trade]} ${e.signature} at ${iso(e.at)}${e.failed ? ' (failed on chain)' : ''}`;
}

function evidenceData(e: ForeignEvidence): Record<string, unknown> {
  if (e.kind === 'order') {
    return { kind: 'order', family: e.family, orderId: e.orderId, createdAt: e.createdAt, depositSignature: e.depositSignature, order: e.described };
  }
  return {
    kind: 'transaction',
    signature: e.signature,
    walletSignature: e.walletSignature,
    at: e.at,
    trade: e.trade,
    programs: e.programs,
    failed: e.failed,
  };
}

export function createWalletSharing(options: WalletSharingOptions): WalletSharing {
  const { wallet, instanceId, audit } = options;
  const foreign: ForeignTransaction[] = [];
  let error: WalletError | null = null;
  const who = `this jupbot (instance ${instanceId}, data_dir ${options.dataDir})`;
  const todo =
    `Trading stops: nothing new is decided, what is in flight stays in the journal for the next start, and jupbot exits with code 77, which the service manager does not restart. ` +
    `Stop the other trader (another jupbot on another host or with another lock_dir, or another tool using this key), then start this one again; ` +
    `if others trade this wallet on purpose, set wallet.shared: true. The vault orders this daemon placed stay open: jupbot audit orders lists them.`;

  function record(evidence: ForeignEvidence, verdict: 'warned' | 'stopped', message: string): void {
    audit.append({
      kind: 'wallet.foreign_activity',
      signature: evidence.kind === 'order' ? evidence.depositSignature : evidence.signature,
      data: { wallet, instanceId, verdict, evidence: evidenceData(evidence), foreignTransactions: foreign.length, summary: summary(evidence), message },
    });
  }

  function stop(evidence: ForeignEvidence, message: string): void {
    const stopping = new WalletError('WALLET_SHARED', message, { wallet, instanceId, evidence: evidenceData(evidence) });
    error = stopping;
    try {
      record(evidence, 'stopped', message);
    } finally {
      // A row the disk would not take must not keep the daemon trading beside the other trader.
      options.onStop(stopping, summary(evidence));
    }
  }

  return {
    report(evidence) {
      if (options.shared || error !== null) return;
      if (evidence.kind === 'order') {
        stop(
          evidence,
          `wallet ${wallet} is traded by someone else: Trigger ${evidence.family} order ${evidence.orderId} was created at ${iso(evidence.createdAt)}, ` +
            `after ${who} started at ${iso(options.startedAt)}, and no intent of ours funded it (deposit ${evidence.depositSignature}). ${todo}`,
        );
        return;
      }
      if (foreign.some((seen) => seen.signature === evidence.signature)) return;
      foreign.push(evidence);
      const seen = `${TRADE_WORDS[evidence.trade]} ${evidence.signature} at ${iso(evidence.at)}${evidence.failed ? ' (it failed on chain)' : ''}`;
      if (foreign.length === 1) {
        record(
          evidence,
          'warned',
          `wallet ${wallet}: the ${seen} was signed with this wallet's key but not by ${who}: someone else traded this wallet. ` +
            `One such transaction is taken for a manual trade and trading goes on; a second one while this daemon runs stops it (WALLET_SHARED). ` +
            `If another jupbot or tool trades this wallet, stop it; if you trade it by hand, set wallet.shared: true.`,
        );
        return;
      }
      const first = foreign[0] as ForeignTransaction;
      stop(
        evidence,
        `wallet ${wallet} is traded by someone else: the ${seen} is the second Jupiter transaction signed with this wallet's key but not by ${who} ` +
          `since it started at ${iso(options.startedAt)} (the first: ${first.signature} at ${iso(first.at)}). ${todo}`,
      );
    },
    readiness: () => ({
      name: 'wallet',
      probe: () => (error === null ? { ok: true } : { ok: false, detail: error.message }),
    }),
  };
}
