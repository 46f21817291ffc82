import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { trigger } from '../../src/jupiter/schemas/index.js';
import { createSimulator } from '../../src/sim/simulator.js';
import type { WorldInput } from '../../src/sim/worldInput.js';
import { JUP, login, SOL, startSim, USDC, wallet, type Harness } from './support/simHarness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;

describe('a wallet with a past (/__sim/trigger/past-orders)', () => {
  it('lists ended price orders in history, newest an hour ago, 30 days of them; they hold nothing and are found by the history filters', async () => {
    h = await startSim();
    const kp = wallet('past');
    const pub = kp.publicKey.toBase58();
    const jwt = await login(h, kp);
    const made = await h.call('POST', '/__sim/trigger/past-orders', { body: { wallet: pub, count: 250 } });
    expect(made).toMatchObject({ status: 200, body: { wallet: pub, family: 'price', orders: 250 } });
    const now = h.clock.now();
    // A wallet with a past has its vault.
    const vault = trigger.Vault.parse((await h.call('GET', '/trigger/v2/vault', { jwt })).body);
    const page = trigger.OrderHistoryResponse.parse(
      (await h.call('GET', `/trigger/v2/orders/history?mint=${SOL}&sort=created_at&dir=desc&limit=100`, { jwt })).body,
    );
    expect(page.pagination).toMatchObject({ total: 250, limit: 100, offset: 0 });
    expect(page.orders).toHaveLength(100);
    const [newest] = page.orders;
    expect(newest).toMatchObject({
      orderType: 'single',
      orderState: 'cancelled',
      rawState: 'cancelled',
      userPubkey: pub,
      privyWalletPubkey: vault.vaultPubkey,
      inputMint: SOL,
      outputMint: USDC,
      remainingInputAmount: '0',
      createdAt: now - 3_600_000,
      updatedAt: now - 3_600_000 + 60_000,
    });
    expect(newest?.events?.map((e) => e.type)).toEqual(['deposit', 'withdrawal', 'cancelled']);
    const times = page.orders.map((o) => o.createdAt ?? 0);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const oldest = trigger.OrderHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history?sort=created_at&dir=asc&limit=1', { jwt })).body)
      .orders[0];
    expect(oldest?.createdAt).toBe(now - 3_600_000 - 249 * Math.floor((30 * DAY) / 250));
    // Another mint's filter does not list them; nothing moved on the ledger.
    expect(trigger.OrderHistoryResponse.parse((await h.call('GET', `/trigger/v2/orders/history?mint=${JUP}`, { jwt })).body).orders).toEqual([]);
    expect(h.sim.control.balance(vault.vaultPubkey, SOL)).toBe(0n);
    expect(h.sim.control.checkInvariants()).toEqual({ supplyMismatches: [], negativeBalances: [] });
  });

  it('DCA past orders too, each readable by its id; bad requests are refused; the input is kept and replays into the same history', async () => {
    const inputs: WorldInput[] = [];
    h = await startSim({ onInput: (input) => inputs.push(input) });
    const kp = wallet('past-dca');
    const pub = kp.publicKey.toBase58();
    const jwt = await login(h, kp);
    const made = await h.call('POST', '/__sim/trigger/past-orders', { body: { wallet: pub, count: 3, family: 'dca', inputMint: USDC, outputMint: SOL } });
    expect(made.body).toEqual({ wallet: pub, family: 'dca', orders: 3 });
    const listed = trigger.DcaHistoryResponse.parse((await h.call('GET', '/trigger/v2/orders/history/dca?sort=created_at&dir=desc', { jwt })).body);
    expect(listed.orders.map((o) => [o.state, o.displayState, o.inputMint, o.outputMint])).toEqual(Array(3).fill(['cancelled', 'cancelled', USDC, SOL]));
    const first = listed.orders[0];
    const one = trigger.DcaHistoryItem.parse((await h.call('GET', `/trigger/v2/orders/history/dca/${first?.id ?? ''}`, { jwt })).body);
    expect(one).toEqual(first);
    for (const body of [{ wallet: pub }, { wallet: pub, count: 0 }, { wallet: pub, count: 2, family: 'swap' }, { wallet: 'nope', count: 2 }])
      expect(await h.call('POST', '/__sim/trigger/past-orders', { body })).toMatchObject({
        status: 400,
        body: { error: 'expected { wallet, count (1–100000), family?: price|dca, inputMint?, outputMint? }' },
      });
    expect((await h.call('POST', '/__sim/trigger/past-orders', { body: { wallet: pub, count: 1, inputMint: SOL, outputMint: SOL } })).body).toEqual({
      error: 'past orders need two different mints the market lists',
    });
    expect(inputs.filter((i) => i.kind === 'control').map((i) => (i.kind === 'control' ? [i.op, ...i.args] : []))).toEqual([
      ['pastOrders', pub, 3, 'dca', USDC, SOL],
    ]);

    const clock = new ManualClock(h.sim.genesis);
    const rebuilt = createSimulator({ clock, seed: 'test' });
    for (const input of inputs) {
      await clock.advance(input.at - clock.now());
      rebuilt.replay(input);
    }
    expect(rebuilt.control.dumpOrders()).toEqual(h.sim.control.dumpOrders());
  });
});
