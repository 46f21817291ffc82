/**
 * `on_remove`: a strategy whose file is deleted, or that is set `enabled: false`, does not leave its
 * vault orders behind silently. `cancel` (the default) cancels them and withdraws their funds;
 * `keep` leaves them working and says so once, in the log and the audit log. The last applied
 * version's `on_remove` governs a deleted file.
 */
import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlWorld, MIN, type ControlWorld } from './controlWorld.js';

const tp = (name: string, extra = ''): string => `name: ${name}
kind: price-order
sell: SOL
receive: USDC
amount: "20%"
execution: vault
reference_price_usd: "150"
take_profit:
  - at: "+20%"
    sell: "100%"
stop_loss:
  at: "-10%"
expires_after: 7d
${extra}`;

/** The simulator's state of each order our mirror has for `strategy` (both legs of an OCO). */
function simStates(w: ControlWorld, strategy: string): string[] {
  const ids = (w.daemon.store.db.prepare('SELECT id FROM trigger_orders WHERE strategy = ? ORDER BY id').all(strategy) as { id: string }[]).map((r) => r.id);
  const dump = w.sim.control.dumpOrders() as { price?: { id: string; orderState: string }[] };
  return ids.map((id) => dump.price?.find((o) => o.id === id)?.orderState ?? 'missing');
}

describe('on_remove', () => {
  it('a deleted file or enabled: false cancels the orders (cancel, the default); keep leaves them working, said once', async () => {
    const w = await controlWorld('remove', {
      'cancel.yaml': tp('tp-cancel'),
      'keep.yaml': tp('tp-keep', 'on_remove: keep\n'),
      'off.yaml': tp('tp-off'),
    });
    await w.drive(5 * MIN);
    for (const strategy of ['tp-cancel', 'tp-keep', 'tp-off']) expect([strategy, simStates(w, strategy)]).toEqual([strategy, ['open', 'open']]);

    unlinkSync(join(w.strategies, 'cancel.yaml'));
    unlinkSync(join(w.strategies, 'keep.yaml'));
    writeFileSync(join(w.strategies, 'off.yaml'), tp('tp-off', 'enabled: false\n'));
    await w.drive(5 * MIN);

    expect(simStates(w, 'tp-cancel')).toEqual(['cancelled', 'cancelled']);
    expect(simStates(w, 'tp-off')).toEqual(['cancelled', 'cancelled']);
    expect(simStates(w, 'tp-keep')).toEqual(['open', 'open']);
    const reasons = w.daemon.store.db
      .prepare(
        "SELECT strategy, json_extract(data, '$.reason') AS reason FROM actions WHERE kind = 'intent.planned' AND intent_id LIKE '%/control/remove/%' ORDER BY strategy",
      )
      .all() as { strategy: string; reason: string }[];
    expect(reasons.map((r) => [r.strategy, r.reason.replace(/order [^\s:]+/, 'order …')])).toEqual([
      ['tp-cancel', 'cancel price order …: strategy tp-cancel was removed (on_remove: cancel)'],
      ['tp-off', 'cancel price order …: strategy tp-off is disabled (enabled: false) (on_remove: cancel)'],
    ]);
    // Kept: said once, however many ticks pass.
    await w.drive(5 * MIN);
    expect(w.count("SELECT count(*) AS n FROM actions WHERE kind = 'control.order-kept' AND strategy = 'tp-keep'")).toBe(1);
    const kept = w.out.lines().filter((l) => String((l as { msg: string }).msg).includes('left working'));
    expect(kept.map((l) => (l as { msg: string }).msg.replace(/order [^\s:]+/, 'order …'))).toEqual([
      'tp-keep: price order … left working: strategy tp-keep was removed (on_remove: keep)',
    ]);
    expect(simStates(w, 'tp-keep')).toEqual(['open', 'open']);
  }, 120_000);
});
