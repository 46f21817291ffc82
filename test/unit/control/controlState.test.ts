/**
 * The control state on its own: each change written with its audit action in one transaction, a
 * change that changes nothing writing nothing, the state read back by a new connection; and the
 * intents it asks for, as a pure function of the state, the orders and the strategies.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { controlIntents, onRemoveOf, OPERATOR } from '../../../src/control/controlIntents.js';
import { type CancellableOrder, positionsSelling } from '../../../src/control/controlOrders.js';
import { controlPausedReason, type Halt, ControlState } from '../../../src/control/controlState.js';
import { saleCounts, type SaleInputs } from '../../../src/control/positionSales.js';
import type { Position } from '../../../src/jupiter/schemas/prediction.js';
import { AuditLog } from '../../../src/store/audit.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { Journal } from '../../../src/store/journal.js';
import { openStore } from '../../../src/store/migrate.js';
import type { LoadedStrategy } from '../../../src/strategies/loadedStrategy.js';
import { tempDir } from '../store/helpers.js';

const T = Date.UTC(2026, 10, 27, 9);

function open(file: string, clock: ManualClock): { state: ControlState; close(): void; kinds(): string[] } {
  const { db } = openStore(file, { clock });
  return {
    state: new ControlState(db, new AuditLog(db, clock), clock),
    close: () => db.close(),
    kinds: () => (db.prepare("SELECT kind FROM actions WHERE kind LIKE 'control.%' ORDER BY id").all() as { kind: string }[]).map((r) => r.kind),
  };
}

describe('ControlState', () => {
  it('records each change with its audit action, ignores a change that changes nothing, and reads back after a reopen', async () => {
    const file = join(tempDir(), 'control.sqlite');
    const clock = new ManualClock(T);
    const a = open(file, clock);
    expect(a.state.status()).toEqual({ halted: null, paused: [] });
    expect(a.state.resume('alice').changed).toBe(false);
    expect(a.state.halt({ reason: 'news', by: 'alice', cancelOrders: false, closePositions: false }).changed).toBe(true);
    await clock.advance(60_000);
    // Widened: the cancel is added, the first reason and time stay.
    const widened = a.state.halt({ reason: 'worse news', by: 'bob', cancelOrders: true, closePositions: false });
    expect(widened).toEqual({
      changed: true,
      status: { halted: { since: T, reason: 'news', by: 'alice', cancelOrders: true, closePositions: false }, paused: [] },
    });
    // Asking for less takes nothing back.
    expect(a.state.halt({ reason: 'again', by: 'bob', cancelOrders: false, closePositions: false }).changed).toBe(false);
    expect(a.state.pause('dca-jup', 'checking', 'carol').changed).toBe(true);
    expect(a.state.pause('dca-jup', 'checking', 'carol').changed).toBe(false);
    a.close();

    const b = open(file, clock);
    expect(b.state.status()).toEqual({
      halted: { since: T, reason: 'news', by: 'alice', cancelOrders: true, closePositions: false },
      paused: [{ strategy: 'dca-jup', since: T + 60_000, reason: 'checking', by: 'carol' }],
    });
    expect(controlPausedReason(b.state.status(), 'other')).toBe('halted by alice at 2026-11-27T09:00:00.000Z: news');
    expect(b.state.resume('dave').changed).toBe(true);
    expect(controlPausedReason(b.state.status(), 'dca-jup')).toBe('paused by carol at 2026-11-27T09:01:00.000Z: checking');
    expect(controlPausedReason(b.state.status(), 'other')).toBeNull();
    expect(b.state.resumeStrategy('dca-jup', 'dave').changed).toBe(true);
    expect(b.state.status()).toEqual({ halted: null, paused: [] });
    expect(b.kinds()).toEqual(['control.halted', 'control.halted', 'control.paused', 'control.resumed', 'control.strategy-resumed']);
    b.close();
    const { db } = openStore(file, { clock });
    expect(verifyAuditChain(db).ok).toBe(true);
    db.close();
  });
});

const order = (id: string, strategy: string, family: 'price' | 'dca' = 'price'): CancellableOrder => ({
  id,
  strategy,
  family,
  state: 'open',
  intent_id: `${strategy}/placed/${id}`,
  input_mint: 'So11111111111111111111111111111111111111112',
  remaining: '1000',
});
const running = (name: string, spec: { enabled?: boolean; on_remove?: 'cancel' | 'keep' } = {}): [string, LoadedStrategy] => [
  name,
  { name, spec: { enabled: true, on_remove: 'cancel', ...spec } } as unknown as LoadedStrategy,
];
const position = (pubkey: string, contractsMicro: bigint | null, more: Partial<Position> = {}): Position => ({
  pubkey,
  ownerPubkey: 'w',
  marketId: 'BTC-1',
  isYes: false,
  contractsMicro,
  ...more,
});
const halt = { since: T, reason: 'r', by: 'b', cancelOrders: true, closePositions: true };
const statuses: Record<string, string> = { 'BTC-1': 'open', 'BTC-0': 'closed', 'ETH-X': 'cancelled' };
const sales = (selling: readonly string[] = []): SaleInputs => ({ marketStatus: (id) => statuses[id], selling: new Set(selling) });
/** The ids of the operator's sales a halt asks for, given the positions as read. */
const saleIds = (h: Halt, positions: readonly Position[], selling: readonly string[] = []): string[] =>
  controlIntents({ halted: h, orders: [], active: new Map(), lastApplied: () => undefined, positions, sales: sales(selling), filesSeen: 1 })
    .intents.filter(({ strategy }) => strategy === OPERATOR)
    .map(({ intent }) => intent.id);

describe('controlIntents', () => {
  it('a halt cancels every order under its strategy and sells every position as the operator, with deterministic ids', () => {
    const plan = controlIntents({
      halted: halt,
      orders: [order('o1', 'a'), order('d1', 'b', 'dca')],
      active: new Map([running('a')]),
      lastApplied: () => undefined,
      positions: [position('p1', 5_000_000n), position('p0', 0n), position('pn', null)],
      filesSeen: 1,
      sales: sales(),
    });
    expect(plan.kept).toEqual([]);
    expect(plan.intents.map(({ strategy, intent }) => [strategy, intent.kind, intent.id])).toEqual([
      ['a', 'cancel-vault-order', 'a/control/halt/o1'],
      ['b', 'cancel-vault-order', 'b/control/halt/d1'],
      [OPERATOR, 'sell-position', `${OPERATOR}/control/close/${T}/p1`],
    ]);
    expect(plan.intents[1]?.intent).toMatchObject({ orderId: 'd1', family: 'dca' });
  });

  it('without a halt: a running strategy keeps its orders; a removed or disabled one follows its on_remove; a broken file is not a removal', () => {
    const plan = controlIntents({
      halted: null,
      orders: [order('o1', 'runs'), order('o2', 'off'), order('o3', 'gone'), order('o4', 'kept'), order('o5', 'broken'), order('o6', 'unknown')],
      active: new Map([running('runs'), running('off', { enabled: false })]),
      lastApplied: (strategy) =>
        ({
          gone: { yaml: 'name: gone\n', filePresent: false },
          kept: { yaml: 'name: kept\non_remove: keep\n', filePresent: false },
          broken: { yaml: 'name: broken\n', filePresent: true },
        })[strategy],
      positions: [position('p1', 5n)],
      filesSeen: 4,
      sales: sales(),
    });
    expect(plan.intents.map(({ intent }) => intent.id)).toEqual(['off/control/remove/o2', 'gone/control/remove/o3', 'unknown/control/remove/o6']);
    expect(plan.kept.map((k) => [k.order.id, k.why])).toEqual([['o4', 'strategy kept was removed']]);
  });

  it('a strategies dir with no file at all (not mounted, emptied by a deploy) removes nothing; a halt still cancels', () => {
    const inputs = {
      halted: null,
      orders: [order('o3', 'gone'), order('o6', 'unknown')],
      active: new Map<string, LoadedStrategy>(),
      lastApplied: (strategy: string) => (strategy === 'gone' ? { yaml: 'name: gone\n', filePresent: false } : undefined),
      positions: undefined,
      filesSeen: 0,
      sales: sales(),
    };
    expect(controlIntents(inputs)).toEqual({ intents: [], kept: [] });
    expect(controlIntents({ ...inputs, halted: { ...halt, closePositions: false } }).intents.map(({ intent }) => intent.id)).toEqual([
      'gone/control/halt/o3',
      'unknown/control/halt/o6',
    ]);
  });

  it('reads on_remove from an applied text, the default when absent or unreadable', () => {
    expect(onRemoveOf('name: a\non_remove: keep\n')).toBe('keep');
    expect(onRemoveOf('name: a\non_remove: cancel\n')).toBe('cancel');
    expect(onRemoveOf('name: a\n')).toBe('cancel');
    expect(onRemoveOf('{ not yaml')).toBe('cancel');
  });

  it('sells only what a prediction exit could sell now, and counts the rest apart', () => {
    const positions = [
      position('sell', 5_000_000n),
      position('claimable', 5_000_000n, { claimable: true, marketId: 'BTC-0' }),
      position('claimed', 5_000_000n, { claimed: true }),
      position('lost', 5_000_000n, { marketId: 'BTC-0' }),
      position('void', 5_000_000n, { marketId: 'ETH-X' }),
      position('on-venue', 5_000_000n, { openOrders: 1 }),
      position('strategy-sells', 5_000_000n),
      // Not in the markets feed: its own metadata says open, so it is sold.
      position('meta', 5_000_000n, { marketId: 'SOL-9', marketMetadata: { marketId: 'SOL-9', status: 'open' } }),
      // Nothing says whether its market is open: not sold now, still counted as left to sell.
      position('unread', 5_000_000n, { marketId: 'SOL-8' }),
    ];
    expect(saleIds(halt, positions, ['strategy-sells'])).toEqual([`${OPERATOR}/control/close/${T}/sell`, `${OPERATOR}/control/close/${T}/meta`]);
    expect(saleCounts(positions, sales(['strategy-sells']))).toEqual({ sell: 2, claimable: 1, closed: 2, selling: 2, unread: 1 });
  });

  it('a halt after a resume sells a position bought again; a restart within one halt asks for the same ids', () => {
    const held = [position('p1', 5_000_000n)];
    const first = saleIds(halt, held);
    // The same halt read back after a restart (or asked again: it keeps its first time): the same ids, so the journal does each once.
    expect(saleIds({ ...halt, reason: 'again', by: 'c' }, held)).toEqual(first);
    // Sold, resumed, the same market and side bought again (the same position account), halted again.
    const later = saleIds({ ...halt, since: T + 3_600_000 }, held);
    expect(later).toEqual([`${OPERATOR}/control/close/${T + 3_600_000}/p1`]);
    expect(later).not.toEqual(first);
    expect(later[0]?.length).toBeLessThanOrEqual(128);
  });
});

describe('positionsSelling', () => {
  it("lists the positions a strategy's unfinished sell is working on, never the operator's own", () => {
    const clock = new ManualClock(T);
    const { db } = openStore(join(tempDir(), 'selling.sqlite'), { clock });
    const journal = new Journal(db, new AuditLog(db, clock), clock);
    const sell = (id: string, strategy: string, pubkey: string, kind = 'sell-position'): string =>
      journal.plan({ id, kind, strategy, rule: 'r', params: { positionPubkey: pubkey, marketId: 'BTC-1', isYes: false, contractsMicro: '1' } }).row.id;
    sell('exit/v/r/a', 'exit', 'A');
    sell('exit/v/r/b', 'exit', 'B', 'partial-sell');
    journal.markFailed(sell('exit/v/r/c', 'exit', 'C'), { code: 'X', message: 'failed' });
    sell(`${OPERATOR}/control/close/${T}/D`, OPERATOR, 'D');
    journal.plan({ id: 'claim/v/r/e', kind: 'claim-position', strategy: 'claim', rule: 'r', params: { positionPubkey: 'E', marketId: 'BTC-1' } });
    expect([...positionsSelling(db, OPERATOR)].sort()).toEqual(['A', 'B']);
    db.close();
  });
});
