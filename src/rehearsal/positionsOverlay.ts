/**
 * The prediction positions a rehearsal holds. The positions feed reads the watched wallet's real
 * positions, which a rehearsed sell or claim never touched: shown as they are, a strategy would sell
 * (or claim) the same contracts again at every tick, and size a later whole sell on contracts the
 * rehearsal no longer has. So the strategies see each real position less the contracts the
 * rehearsal's own fills took from it (the fill's contract leg, by position), and a position the
 * rehearsal emptied not at all. Read from the `fills` table at every tick, so a restart sees exactly
 * what the last process rehearsed.
 *
 * Only the strategies' view changes: the feed itself, and everything else that reads it (status,
 * the CLI), still shows the wallet as the chain has it.
 */
import { z } from 'zod';
import type { FeedState } from '../engine/feeds/poller.js';
import type { Position } from '../jupiter/schemas/prediction.js';
import { formatUnits } from '../money/formatUnits.js';
import type { Db } from '../store/db.js';
import { parseRows } from '../store/parseRows.js';
import { statement } from '../store/statementCache.js';
import { REHEARSAL_FILL_PREFIX } from './rehearsalFillId.js';

const CONTRACT = 1_000_000n;
const TakenRow = z.object({ position_pubkey: z.string(), in_amount: z.string().regex(/^\d+$/).transform(BigInt) });

/** Micro-contracts the rehearsal's fills took from each position (sold or claimed), by position pubkey. */
export function contractsTaken(db: Db): Map<string, bigint> {
  const rows = parseRows(
    TakenRow,
    statement(db, "SELECT position_pubkey, in_amount FROM fills WHERE source = 'prediction' AND position_pubkey IS NOT NULL AND signature LIKE ?").all(
      `${REHEARSAL_FILL_PREFIX}%`,
    ),
    'rehearsal prediction fills',
  );
  const out = new Map<string, bigint>();
  for (const row of rows) out.set(row.position_pubkey, (out.get(row.position_pubkey) ?? 0n) + row.in_amount);
  return out;
}

/**
 * `positions` as the rehearsal holds them: each less what `taken` says the rehearsal took from it;
 * one with nothing left is gone, as the API drops a position sold out or claimed. Amounts that scale
 * with the contracts (cost, value, payout, P&L) scale with them, so no figure describes contracts the
 * rehearsal does not hold.
 */
export function overlayPositions(positions: readonly Position[], taken: ReadonlyMap<string, bigint>): Position[] {
  const out: Position[] = [];
  for (const p of positions) {
    const took = taken.get(p.pubkey) ?? 0n;
    const held = p.contractsMicro;
    // A position whose count the API did not give is never acted on (the snapshot drops it): left as is.
    if (took <= 0n || held === null || held === undefined) {
      out.push(p);
      continue;
    }
    const left = held - took;
    if (left <= 0n) continue;
    const scale = (v: bigint | null | undefined): bigint | null | undefined => (v === null || v === undefined ? v : (v * left) / held);
    out.push({
      ...p,
      contracts: (left / CONTRACT).toString(),
      contractsMicro: left,
      contractsDecimal: formatUnits(left, 6),
      totalCostUsd: scale(p.totalCostUsd),
      sizeUsd: scale(p.sizeUsd),
      valueUsd: scale(p.valueUsd),
      payoutUsd: scale(p.payoutUsd),
      pnlUsd: scale(p.pnlUsd),
      pnlUsdAfterFees: scale(p.pnlUsdAfterFees),
    });
  }
  return out;
}

/** The positions feed's state with the rehearsal's positions as its value; its age, freshness and errors are the feed's own. */
export function rehearsalPositions(db: Db, feed: FeedState<readonly Position[]> | undefined): FeedState<readonly Position[]> | undefined {
  if (feed?.value === undefined) return feed;
  return { ...feed, value: overlayPositions(feed.value, contractsTaken(db)) };
}
