/**
 * Prediction exits end to end, through the engine's real decide loop: the
 * positions, markets, scores and trading-status feeds poll the simulator, the tick loop builds the
 * snapshot from them, decide() fires the strategy's rule, the prediction routes journal the intent
 * (its evidence in the `intent.planned` audit row) and the executor sells or claims on a ManualClock.
 */
import { describe, expect, it } from 'vitest';
import { NBA_EVENT, NBA_MARKET } from '../../../support/intentPlans.js';
import { actions, fills as predictionFills } from '../../../support/journalRows.js';
import { simPredictionOrders } from '../../../support/simViews.js';
import { testWorld } from '../../../support/testStack.js';
import { computePnl } from '../../../../src/audit/pnl.js';
import { tokenNamer } from '../../../../src/audit/tokenNames.js';
import { toTrade } from '../../../../src/audit/trades.js';
import { USDC_MINT } from '../../../../src/solana/programIds.js';
import type { Db } from '../../../../src/store/db.js';
import { listFills } from '../../../../src/store/fillRecords.js';
import { listPriceSamples } from '../../../../src/store/priceSamples.js';
import { strategies } from './support.js';
import { countRows, startTradingStack } from './tradingSupport.js';

const STRATEGY = `name: nba-exit
kind: prediction-exit
positions: { market: ${NBA_MARKET} }
rules:
  - { id: lock_in, when: { score: { lead_at_least: 15 } } }
`;

const PART = `name: nba-trim
kind: prediction-exit
positions: { market: ${NBA_MARKET} }
rules:
  - { id: trim, when: { score: { lead_at_least: 15 } }, action: sell_part, share: "50%" }
`;

describe('prediction exits end to end, through the decide loop', () => {
  it('a partial sell, read back by the audit: half the contracts sold for exactly the USDC the wallet received', async () => {
    const w = testWorld({ seed: 'e2e-prediction-part', paperWallet: true });
    w.sim.control.setScore(NBA_EVENT, 80, 60);
    const before = w.sim.control.balance(w.wallet.address, USDC_MINT);
    const s = await startTradingStack(w, await strategies(PART));
    await s.tick(8);
    const received = w.sim.control.balance(w.wallet.address, USDC_MINT) - before;
    expect(received).toBeGreaterThan(0n);

    const trades = listFills(s.db).map((fill) => toTrade(fill, tokenNamer(new Map())));
    expect(trades).toHaveLength(1);
    const [trade] = trades;
    // The wallet held 20 contracts: 50% is 10, sold for USDC; the ledger's credit is the proceeds net of the fee.
    expect(trade).toMatchObject({ strategy: 'nba-trim', side: 'sell', source: 'prediction', token: { symbol: `${NBA_MARKET} YES`, units: 10_000_000n } });
    expect(trade?.counter).toMatchObject({ mint: USDC_MINT, units: received });
    // Price per contract = USDC received ÷ 10 contracts, in micro-dollars exact: no float.
    expect(trade?.priceUsd).toBe((received * 10n ** 12n) / 10n);

    // The price history kept the market's marks under the same name the fill gives the contracts.
    const marks = listPriceSamples(s.db, { mints: [trade?.token.mint ?? ''] });
    expect(marks.length).toBeGreaterThanOrEqual(1);
    expect(marks.every((m) => m.at % 60_000 === 0 && Number(m.usd) > 0 && Number(m.usd) < 1)).toBe(true);
    expect(listPriceSamples(s.db, { mints: [`prediction:${NBA_MARKET}:no`] }).length).toBe(marks.length);

    // No lot holds contracts bought elsewhere: what the wallet received has no known cost.
    const pnl = computePnl(trades);
    const fee = trade?.fee?.usd ?? 0n;
    expect(pnl.total).toMatchObject({ trades: 1, realizedUsd: 0n, unmatchedProceedsUsd: received * 10n ** 12n, feesUsd: fee });
    await s.stop();
  });

  it('a prediction position sold when its score rule fires, with the score snapshot in the intent.planned row', async () => {
    const w = testWorld({ seed: 'e2e-prediction-sell', paperWallet: true });
    w.sim.control.setScore(NBA_EVENT, 70, 60);
    const loaded = await strategies(STRATEGY);
    const s = await startTradingStack(w, loaded);
    // Markets, then their events' scores, reach the snapshot over the first polls: a 10-point lead holds.
    await s.tick(3);
    expect(intentRows(s.db)).toEqual([]);

    w.sim.control.setScore(NBA_EVENT, 80, 60);
    await s.tick(4);
    // Journaled by the tick, sent, and confirmed as the order fills (reconciliation drives what was sent).
    const [sold] = intentRows(s.db);
    expect(intentRows(s.db)).toEqual([expect.objectContaining({ kind: 'sell-position', rule: 'lock_in', state: 'confirmed' })]);
    const id = sold?.id ?? '';
    const pubkey = /[^/]+$/.exec(id)?.[0];
    expect(predictionFills(s.db, id)).toEqual([expect.objectContaining({ source: 'prediction', position_pubkey: pubkey, in_amount: '20000000' })]);
    const planned = actions(s.db, 'intent.planned');
    expect(planned).toHaveLength(1);
    const data = JSON.parse(planned[0]?.data ?? '{}') as { kind: string; evidence: Record<string, unknown>; reason: string };
    expect(data.kind).toBe('sell-position');
    // The score the rule fired on, as the scores feed read it.
    expect(data.evidence).toMatchObject({
      marketId: NBA_MARKET,
      isYes: true,
      contractsMicro: '20000000',
      score: '80-60',
      period: expect.any(Number) as number,
      trigger: pubkey,
    });
    expect(data.reason).toContain('lock_in');

    // Sold: the next polls show no position, and nothing more is decided.
    await s.tick(4);
    expect(intentRows(s.db)).toHaveLength(1);
    expect(predictionFills(s.db, id)).toHaveLength(1);
    expect(simPredictionOrders(w).filter((o) => !o.isBuy)).toHaveLength(1);
    expect(countRows(s.db, "SELECT count(*) AS n FROM actions WHERE kind = 'intent.deferred'")).toBe(0);
    await s.stop();

    // A restart on the same file: still one sale.
    const again = await startTradingStack(w, loaded);
    await again.tick(3);
    expect(intentRows(again.db)).toHaveLength(1);
    expect(predictionFills(again.db, id)).toHaveLength(1);
    await again.stop();
  });

  it('a settled winning position claimed, once', async () => {
    const w = testWorld({ seed: 'e2e-prediction-claim', paperWallet: true });
    w.sim.control.settleMarket(NBA_MARKET, 'yes');
    const s = await startTradingStack(w, await strategies(STRATEGY));
    await s.tick(3);
    const rows = intentRows(s.db);
    expect(rows).toEqual([expect.objectContaining({ kind: 'claim-position', rule: 'claim', state: 'confirmed' })]);
    const id = rows[0]?.id ?? '';
    expect(predictionFills(s.db, id)).toEqual([expect.objectContaining({ out_amount: '20000000', source: 'prediction' })]);
    const planned = JSON.parse(actions(s.db, 'intent.planned')[0]?.data ?? '{}') as { evidence: Record<string, unknown> };
    expect(planned.evidence).toMatchObject({ marketId: NBA_MARKET, result: 'yes' });

    // Claimed: the position is gone from /positions, and nothing more is decided.
    await s.tick(4);
    expect(intentRows(s.db)).toHaveLength(1);
    expect(predictionFills(s.db, id)).toHaveLength(1);
    await s.stop();
  });
});

function intentRows(db: Db): Array<{ id: string; kind: string; rule: string; state: string }> {
  return db.prepare('SELECT id, kind, rule, state FROM intents ORDER BY created_at, id').all() as never;
}
