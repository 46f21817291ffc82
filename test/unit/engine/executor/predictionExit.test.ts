/**
 * End to end: the prediction feeds read the simulator, their values become the strategies' views,
 * decide() fires a prediction-exit rule, its route journals the intent and the executor carries it
 * out — the way the tick loop does once buildSnapshot carries markets, scores and trading status.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { intentRoutes, planOf } from '../../../../src/engine/executor/intentRoute.js';
import { predictionRoutes } from '../../../../src/engine/executor/predictionParams.js';
import { createMarketsFeed } from '../../../../src/engine/feeds/markets.js';
import type { Poller } from '../../../../src/engine/feeds/poller.js';
import { createPositionsFeed } from '../../../../src/engine/feeds/positions.js';
import { createScoresFeed } from '../../../../src/engine/feeds/scores.js';
import { createTradingStatusFeed } from '../../../../src/engine/feeds/tradingStatus.js';
import { marketViews, scoreViews } from '../../../../src/engine/tick/predictionViews.js';
import { decide } from '../../../../src/strategies/decide.js';
import type { LoadedPredictionExit } from '../../../../src/strategies/loadedStrategy.js';
import type { PositionView, Snapshot } from '../../../../src/strategies/snapshot.js';
import { load, snapshot } from '../../strategies/helpers.js';
import { actions } from './vaultSupport.js';
import { NBA_EVENT, NBA_MARKET, predictionFills, predictionWorld, type PredictionStack, type PredictionWorld } from './predictionSupport.js';

const routes = intentRoutes(...predictionRoutes);
let stop: AbortController | undefined;
afterEach(() => stop?.abort());

async function once<T>(feed: Poller<T>): Promise<T> {
  const first = feed.events.next('updated');
  feed.start((stop ??= new AbortController()).signal);
  return (await first).value;
}

/** One read of every prediction feed, as the snapshot the tick loop would build from them. */
async function readSnapshot(w: PredictionWorld, s: PredictionStack): Promise<Snapshot> {
  stop?.abort();
  stop = new AbortController();
  const common = { client: s.client, clock: w.clock, intervalMs: 15_000 };
  const positions = await once(createPositionsFeed({ ...common, wallet: w.wallet.address }));
  const markets = await once(createMarketsFeed({ ...common, marketIds: () => positions.map((p) => p.marketId) }));
  const scores = await once(createScoresFeed({ ...common, eventIds: () => [...markets.values()].flatMap((m) => (m.eventId ? [m.eventId] : [])) }));
  const trading = await once(createTradingStatusFeed(common));
  const views: PositionView[] = positions.map((p) => ({
    pubkey: p.pubkey,
    marketId: p.marketId,
    isYes: p.isYes,
    contractsMicro: p.contractsMicro ?? 0n,
    sellPriceMicroUsd: p.sellPriceUsd ?? null,
    claimable: p.claimable === true,
    claimed: p.claimed === true,
  }));
  return snapshot({ at: w.clock.now(), positions: views, markets: marketViews(markets), scores: scoreViews(scores), tradingActive: trading });
}

const STRATEGY = `name: nba-exit
kind: prediction-exit
positions: { market: ${NBA_MARKET} }
rules:
  - { id: lock_in, when: { score: { lead_at_least: 15 } } }
`;

describe('prediction exits end to end', () => {
  it('a prediction position sold when its score rule fires, with the score snapshot in the audit row', async () => {
    const w = predictionWorld('prediction-e2e');
    const s = w.bootPrediction();
    const strategy = await load<LoadedPredictionExit>(STRATEGY);

    w.sim.control.setScore(NBA_EVENT, 70, 60);
    expect(decide(strategy, {}, await readSnapshot(w, s), w.clock.now()).intents).toEqual([]);

    w.sim.control.setScore(NBA_EVENT, 80, 60);
    const snap = await readSnapshot(w, s);
    const position = snap.positions.find((p) => p.marketId === NBA_MARKET);
    const decision = decide(strategy, {}, snap, w.clock.now());
    expect(decision.intents.map((i) => i.kind)).toEqual(['sell-position']);
    const intent = decision.intents[0];
    if (!intent) throw new Error('no intent');
    const input = planOf(routes, intent);
    expect(input).toBeDefined();
    if (!input) return;

    const sent = await s.executor.execute(input);
    expect(sent.state).toBe('sent');
    await w.sim.control.advance(2_000);
    const row = await s.executor.drive(sent.id);
    expect(row.state).toBe('confirmed');
    expect(row.rule).toBe('lock_in');
    expect(predictionFills(s.db, row.id)).toEqual([expect.objectContaining({ source: 'prediction', position_pubkey: position?.pubkey, in_amount: '20000000' })]);

    const planned = JSON.parse(actions(s.db, 'intent.planned')[0]?.data ?? '{}') as { kind: string; evidence: Record<string, unknown>; reason: string; params: Record<string, unknown> };
    expect(planned.kind).toBe('sell-position');
    expect(planned.evidence).toMatchObject({ marketId: NBA_MARKET, isYes: true, contractsMicro: '20000000', score: '80-60', period: expect.any(Number) as number, trigger: position?.pubkey });
    expect(planned.reason).toContain('lock_in');
    expect(planned.params).toMatchObject({ positionPubkey: position?.pubkey, contractsMicro: '20000000', strategyHash: strategy.hash });

    // Sold: the next read has no position, and nothing more is decided.
    expect(decide(strategy, {}, await readSnapshot(w, s), w.clock.now()).intents).toEqual([]);
  });

  it('a settled winning position claimed', async () => {
    const w = predictionWorld('prediction-e2e-claim');
    const s = w.bootPrediction();
    const strategy = await load<LoadedPredictionExit>(STRATEGY);
    w.sim.control.settleMarket(NBA_MARKET, 'yes');

    const snap = await readSnapshot(w, s);
    expect(snap.markets.get(NBA_MARKET)).toMatchObject({ status: 'closed', result: 'yes', eventId: NBA_EVENT });
    const decision = decide(strategy, {}, snap, w.clock.now());
    expect(decision.intents.map((i) => i.kind)).toEqual(['claim-position']);
    const input = planOf(routes, decision.intents[0] as never);
    if (!input) throw new Error('no route for claims');
    const row = await s.executor.execute(input);
    expect(row.state).toBe('confirmed');
    expect(predictionFills(s.db, row.id)).toEqual([expect.objectContaining({ out_amount: '20000000', source: 'prediction' })]);
    const planned = JSON.parse(actions(s.db, 'intent.planned')[0]?.data ?? '{}') as { evidence: Record<string, unknown> };
    expect(planned.evidence).toMatchObject({ marketId: NBA_MARKET, result: 'yes' });

    // Claimed: the position is gone from /positions, and nothing more is decided.
    expect(decide(strategy, {}, await readSnapshot(w, s), w.clock.now()).intents).toEqual([]);
  });
});
