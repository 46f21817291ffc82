import { describe, expect, it } from 'vitest';
import { SOL_MINT } from '../../../../src/solana/programIds.js';
import { type Armed, StrategyMemory } from '../../../../src/engine/tick/strategyMemory.js';
import type { StrategyProgress } from '../../../../src/engine/tick/strategyProgress.js';
import { openStore } from '../../../../src/store/migrate.js';
import { StrategyStates } from '../../../../src/store/strategyStates.js';
import type { PositionView } from '../../../../src/strategies/snapshot.js';
import { freshStore, track } from '../../store/helpers.js';
import { HEADER, load, snapshot, T0, usd } from '../../strategies/helpers.js';

const PRICE_ORDER = `${HEADER}name: tp
kind: price-order
sell: SOL
receive: USDC
amount: "50%"
execution: local
take_profit:
  - at: "+20%"
    sell: "100%"
trailing_stop:
  distance: "10%"
`;

const PREDICTION = `${HEADER}name: px
kind: prediction-exit
positions:
  market: NBA-1001-M1
  side: any
yes_team: home
rules:
  - id: trail
    when:
      trailing_from_peak: "20%"
`;

const progress: StrategyProgress = { handled: new Set(), generation: 0, filledRules: new Set(), notional: { day: 0, usedUsd: 0n } };

function position(sellPriceMicroUsd: bigint | null): PositionView {
  return { pubkey: 'pos1', marketId: 'NBA-1001-M1', isYes: true, contractsMicro: 10_000_000n, sellPriceMicroUsd, claimable: false, claimed: false };
}

describe('StrategyMemory kept in strategy_state', () => {
  it('keeps the arming, the peak and the start across a restart, and audits the arming once', async () => {
    const { db, file, clock } = freshStore();
    const strategy = await load(PRICE_ORDER);
    const armed: Armed[] = [];
    const first = new StrategyMemory({ store: new StrategyStates(db), onArmed: (a) => armed.push(a) });
    first.state(strategy, progress, snapshot({ sol: '150' }), T0);
    first.state(strategy, progress, snapshot({ sol: '170' }), T0 + 10_000);
    first.scheduled('tp', T0 + 5_000);
    first.flush(T0 + 10_000);
    db.close();

    const reopened = track(openStore(file, { clock }).db);
    const second = new StrategyMemory({ store: new StrategyStates(reopened), onArmed: (a) => armed.push(a) });
    const state = second.state(strategy, progress, snapshot({ sol: '140' }), T0 + 3_600_000);
    expect(state.startedAt).toBe(T0);
    expect(state.referencePriceUsd).toBe(usd('150'));
    expect(state.armedAmount).toBe(10_000_000_000n);
    expect(state.peakPriceUsd).toBe(usd('170'));
    expect(state.lastScheduledRun).toBe(T0 + 5_000);
    expect(armed).toEqual([
      { strategy: 'tp', generation: 0, referencePriceUsd: '150', armedAmount: '10000000000', mint: SOL_MINT, symbol: 'SOL', decimals: 9 },
    ]);
  });

  it('starts a new generation afresh and persists that too', async () => {
    const { db } = freshStore();
    const strategy = await load(PRICE_ORDER);
    const store = new StrategyStates(db);
    const memory = new StrategyMemory({ store });
    memory.state(strategy, progress, snapshot({ sol: '150' }), T0);
    const next = memory.state(strategy, { ...progress, generation: 1 }, snapshot({ sol: '120' }), T0 + 1000);
    memory.flush(T0 + 1000);
    expect(next.referencePriceUsd).toBe(usd('120'));
    expect(store.get('tp')).toMatchObject({ generation: 1, referencePriceUsd: '120', peakPriceUsd: '120' });
  });

  it('keeps each prediction position’s highest sell price, and forgets positions no longer held', async () => {
    const { db } = freshStore();
    const strategy = await load(PREDICTION);
    const store = new StrategyStates(db);
    const memory = new StrategyMemory({ store });
    memory.state(strategy, progress, snapshot({ positions: [position(700_000n)] }), T0);
    const state = memory.state(strategy, progress, snapshot({ positions: [position(500_000n)] }), T0 + 1000);
    expect(state.positionPeaks?.get('pos1')).toBe(700_000n);
    // No bid now: the peak stays.
    expect(memory.state(strategy, progress, snapshot({ positions: [position(null)] }), T0 + 2000).positionPeaks?.get('pos1')).toBe(700_000n);
    memory.flush(T0 + 2000);
    expect(new StrategyMemory({ store }).state(strategy, progress, snapshot({ positions: [position(600_000n)] }), T0 + 3000).positionPeaks?.get('pos1')).toBe(
      700_000n,
    );
    expect(memory.state(strategy, progress, snapshot({ positions: [] }), T0 + 4000).positionPeaks?.size).toBe(0);
  });

  it('ignores a stored document it cannot read, field by field, rather than failing the strategy', async () => {
    const { db } = freshStore();
    const strategy = await load(PRICE_ORDER);
    db.prepare('INSERT INTO strategy_state (strategy, state, updated_at) VALUES (?, ?, ?)').run(
      'tp',
      JSON.stringify({ startedAt: T0 - 1000, generation: 0, referencePriceUsd: 'lots', armedAmount: '5', peakPriceUsd: '1e9' }),
      T0,
    );
    const state = new StrategyMemory({ store: new StrategyStates(db) }).state(strategy, progress, snapshot({ sol: '150' }), T0);
    expect(state.startedAt).toBe(T0 - 1000);
    // The broken arming is dropped and re-armed from now; the broken peak too.
    expect(state.referencePriceUsd).toBe(usd('150'));
    expect(state.peakPriceUsd).toBe(usd('150'));
    db.prepare('UPDATE strategy_state SET state = ? WHERE strategy = ?').run(JSON.stringify({ generation: 0 }), 'tp');
    expect(new StrategyMemory({ store: new StrategyStates(db) }).state(strategy, progress, snapshot(), T0 + 5).startedAt).toBe(T0 + 5);
  });

  it('writes nothing when nothing changed', async () => {
    const { db } = freshStore();
    const strategy = await load(PRICE_ORDER);
    const memory = new StrategyMemory({ store: new StrategyStates(db) });
    memory.state(strategy, progress, snapshot({ sol: '150' }), T0);
    memory.flush(T0);
    memory.state(strategy, progress, snapshot({ sol: '149' }), T0 + 10);
    memory.flush(T0 + 10);
    expect(db.prepare('SELECT updated_at FROM strategy_state').get()).toEqual({ updated_at: T0 });
  });
});
