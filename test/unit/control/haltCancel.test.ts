/**
 * `jupbot halt --cancel-orders --close-positions` against a running paper daemon, over its control
 * socket: every vault and DCA order of ours is cancelled through the two-step cancel, every deposit
 * comes back to the wallet (the simulator's ledger says so, not our journal), every prediction
 * position is sold; the halt survives a restart, and `jupbot resume` lets the strategies decide again.
 */
import { describe, expect, it } from 'vitest';
import { simDca, simOrders } from '../../support/simViews.js';
import { controlWorld, MIN, type ControlWorld } from './controlWorld.js';
import { VAULT_TP } from '../../support/strategyTexts.js';

const SOL = 'So11111111111111111111111111111111111111112';

const DCA_VAULT = `name: jup-dca-vault
kind: dca
buy: JUP
pay_with: USDC
amount: "20"
execution: vault
vault:
  orders: 10
  interval: 1d
  type: time_based
`;

/** What the simulator's vault of our wallet holds, by mint (the other side of our deposits). */
function vaultHoldings(w: ControlWorld): Record<string, string> {
  const wallet = w.daemon.engine.wallet;
  const dump = w.sim.control.dumpLedger();
  const ours = new Set(dump.entries.filter((e) => e.wallet === wallet && e.reason === 'deposit').map((e) => e.ref));
  const vaults = new Set(dump.entries.filter((e) => e.wallet !== wallet && e.reason === 'deposit' && ours.has(e.ref)).map((e) => e.wallet));
  expect(vaults.size).toBe(1);
  const [vault] = [...vaults];
  return Object.fromEntries(Object.entries(dump.balances[vault as string] ?? {}).filter(([, amount]) => amount !== '0'));
}

type ControlJson = { halted: { by: string; reason: string; cancelOrders: boolean; closePositions: boolean } | null; paused: unknown[] };
type RuleJson = { rule: string; state: string; why: string };

describe('halt --cancel-orders --close-positions', () => {
  it('cancels every order and brings every deposit back, sells every position, stays halted across a restart; resume trades again', async () => {
    const w = await controlWorld('halt', { 'tp.yaml': VAULT_TP, 'dca.yaml': DCA_VAULT });
    await w.drive(5 * MIN);
    const wallet = w.daemon.engine.wallet;
    // Both orders are working (the OCO's two legs share one deposit), their deposits in the vault.
    expect(simOrders({ sim: w.sim, wallet: { address: wallet } }).map((o) => o.orderState)).toEqual(['open', 'open']);
    expect(simDca({ sim: w.sim, wallet: { address: wallet } }).map((o) => o.state)).toEqual(['active']);
    const vaultBefore = vaultHoldings(w);
    expect(BigInt(vaultBefore[SOL] ?? '0')).toBeGreaterThan(0n);
    const solBefore = w.sim.control.balance(wallet, SOL);
    // No strategy needs prediction: the positions are not read until the halt asks for their sale.
    expect(w.daemon.engine.control.left().positions).toBeNull();

    const halt = await w.cli(['halt', '--cancel-orders', '--close-positions', '--reason', 'market looks wrong', '--wait', '0']);
    expect(halt.stderr).toBe('');
    expect(halt.code).toBe(0);
    expect(halt.stdout).toContain('recorded by the running daemon');
    expect(halt.stdout).toMatch(/^HALTED since 2026-11-02T08:05:\d\d\.\d{3}Z by .+: market looks wrong; cancelling every order, selling every position$/m);
    expect(halt.stdout).toMatch(/^left now: 2 order\(s\) live, positions not read yet; not waited for \(--wait 0\)/m);

    await w.drive(10 * MIN);
    // The simulator's side: no order of ours open, the vault empty, the deposit of SOL back in the wallet.
    expect(simOrders({ sim: w.sim, wallet: { address: wallet } }).map((o) => o.orderState)).toEqual(['cancelled', 'cancelled']);
    expect(simDca({ sim: w.sim, wallet: { address: wallet } }).map((o) => o.state)).not.toContain('active');
    expect(vaultHoldings(w)).toEqual({});
    // Back to the lamport, less the fees of the two cancels' transactions (5 000 lamports each at most here).
    const solBack = w.sim.control.balance(wallet, SOL) - solBefore;
    expect(solBack).toBeGreaterThan(BigInt(vaultBefore[SOL] as string) - 100_000n);
    expect(solBack).toBeLessThanOrEqual(BigInt(vaultBefore[SOL] as string));
    // Every position sold, by the operator's intents.
    expect(w.count("SELECT count(*) AS n FROM intents WHERE kind = 'sell-position' AND strategy = 'operator.control' AND state = 'confirmed'")).toBe(2);
    expect(w.count("SELECT count(*) AS n FROM intents WHERE kind = 'cancel-vault-order' AND id LIKE '%/control/halt/%' AND state = 'confirmed'")).toBe(2);
    // Asked again: nothing is left, said at once.
    const again = await w.cli(['halt', '--cancel-orders', '--wait', '1m']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to change');
    expect(again.stdout).toContain('nothing left: no live order of ours, no position held');

    // /status carries the halt; every rule says why it waits.
    const status = await w.json('/status');
    expect(status['control']).toMatchObject({ halted: { reason: 'market looks wrong', cancelOrders: true, closePositions: true }, paused: [] });
    const rules = (status['trading'] as { strategies: Record<string, { rules: RuleJson[] }> }).strategies;
    expect(rules['sol-take-profit']?.rules.map((r) => r.state)).toEqual(['paused']);
    expect(rules['sol-take-profit']?.rules[0]?.why).toMatch(/^halted by .+ at 2026-11-02T08:05:.*: market looks wrong$/);
    expect(w.count("SELECT count(*) AS n FROM actions WHERE kind = 'control.halted' AND json_extract(data, '$.reason') = 'market looks wrong'")).toBe(1);

    // A restart stays halted: nothing is placed again.
    const deposits = w.count("SELECT count(*) AS n FROM intents WHERE kind IN ('place-vault-order', 'place-dca-vault-order')");
    expect(w.out.text).not.toContain('starting HALTED');
    await w.restart();
    expect(w.out.text).toMatch(/starting HALTED: halted by .+ at 2026-11-02T08:05:.*: market looks wrong; jupbot resume lets the strategies decide again/);
    await w.drive(10 * MIN);
    expect(((await w.json('/status'))['control'] as ControlJson).halted).toMatchObject({ reason: 'market looks wrong', cancelOrders: true });
    expect(w.count("SELECT count(*) AS n FROM intents WHERE kind IN ('place-vault-order', 'place-dca-vault-order')")).toBe(deposits);

    // Resumed: the strategies decide again and place their orders anew.
    const resume = await w.cli(['resume']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('not halted: strategies decide');
    await w.drive(5 * MIN);
    expect(((await w.json('/status'))['control'] as ControlJson).halted).toBeNull();
    expect(w.count("SELECT count(*) AS n FROM intents WHERE kind IN ('place-vault-order', 'place-dca-vault-order')")).toBeGreaterThan(deposits);
    expect(w.count("SELECT count(*) AS n FROM actions WHERE kind = 'control.resumed'")).toBe(1);
  }, 180_000);

  it('a halt wakes the decide loop at once: its cancels begin before the clock moves', async () => {
    const w = await controlWorld('halt-wake', { 'tp.yaml': VAULT_TP });
    await w.drive(5 * MIN);
    const cancels = (): number => w.count("SELECT count(*) AS n FROM intents WHERE kind = 'cancel-vault-order' AND id LIKE '%/control/halt/%'");
    expect(cancels()).toBe(0);
    const at = w.clock.now();
    const tick = w.daemon.engine.trading.ticks.events.next('tick');
    w.daemon.engine.control.answer({ command: 'halt', by: 'test', reason: 'now', cancelOrders: true, closePositions: false });
    // No price read, no timer: only the halt itself can have started this tick.
    expect((await tick).at).toBe(at);
    expect(cancels()).toBe(1);
    // A pause while the halt's cancel is under way answers at once: only a halt waits for what is left.
    const pause = await w.cli(['pause', 'sol-take-profit']);
    expect(pause.code).toBe(0);
    expect(pause.stdout).toMatch(/^paused: sol-take-profit since /m);
    expect(pause.stdout).not.toMatch(/left/);
  });
});
