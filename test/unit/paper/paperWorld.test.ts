/**
 * Paper mode keeps its world: a daemon places orders and trades, stops; the next start rebuilds the
 * same world from the data directory (same orders, balances, ledger entries) and continues the same
 * database and strategy memory, placing nothing twice. Runs the whole daemon in process on a
 * stepping clock, so what happens depends on the seed and the clock only.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { InProcessNetwork, SIM_ORIGIN } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import type { Config } from '../../../src/config/config.js';
import { start, type Daemon } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { openPaperWorld } from '../../../src/paper/openPaperWorld.js';
import { createRandom } from '../../../src/random.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { repoRoot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

const MINUTE = 60_000;
const START = Date.UTC(2026, 10, 2, 8, 0);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspace(): { dir: string; config: Config } {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-paper-world-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'strategies'));
  // A vault take-profit/stop (orders kept by the world), a local trailing stop (a peak kept in the
  // strategy's memory) and a prediction sale (a position the world changes).
  for (const name of ['sol-take-profit.yaml', 'jup-local-exits.yaml', 'btc-no-take-profit.yaml'])
    copyFileSync(join(repoRoot, 'strategies', name), join(dir, 'strategies', name));
  const config = parseConfigText(
    [`data_dir: ${dir}/data`, `strategies_dir: ${dir}/strategies`, 'http: { listen: "127.0.0.1:0" }', 'sim: { seed: keep-me }', ''].join('\n'),
    join(dir, 'config.yaml'),
    {},
    dir,
  );
  return { dir, config };
}

interface Run {
  readonly daemon: Daemon;
  readonly net: InProcessNetwork;
  readonly restored: boolean;
}

async function run(config: Config, clock: SteppingClock, out: MemoryStream): Promise<Run> {
  const net = new InProcessNetwork(clock);
  const log = createLogger({ destination: out, clock });
  const world = await openPaperWorld(config, net.simClock(), log, (sim) => {
    net.connect(sim);
    return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
  });
  const daemon = await start(config, { clock, log, random: createRandom('paper-world-daemon'), network: net.fetch, paperWorld: world });
  return { daemon, net, restored: world.restored };
}

async function simGet(net: InProcessNetwork, path: string): Promise<unknown> {
  const response = await net.fetch(`${SIM_ORIGIN}${path}`);
  return response.json();
}

/** What must be the same across a restart: the world's ledger and orders, the journal's orders, intents and strategy memory. */
async function snapshot(config: Config, net: InProcessNetwork): Promise<Record<string, unknown>> {
  await simGet(net, '/__sim/state'); // catches the world up to the clock
  const db = new Database(join(config.data_dir, 'jupbot-paper.sqlite'), { readonly: true });
  try {
    return {
      ledger: await simGet(net, '/__sim/ledger'),
      orders: await simGet(net, '/__sim/orders'),
      triggerOrders: db.prepare('SELECT id, strategy, state, input_amount, trigger_price_usd FROM trigger_orders ORDER BY id').all(),
      intents: db.prepare('SELECT id, strategy, kind, state FROM intents ORDER BY id').all(),
      memory: db.prepare('SELECT strategy, state FROM strategy_state ORDER BY strategy').all(),
    };
  } finally {
    db.close();
  }
}

describe('paper mode keeps its world', () => {
  it('a restart continues the same world, database and strategy memory; nothing is placed twice', async () => {
    const { dir, config } = workspace();
    const clock = new SteppingClock(START);
    const out = new MemoryStream();

    const first = await run(config, clock, out);
    expect(first.restored).toBe(false);
    await driveTo(clock, first.net, START + 10 * MINUTE);
    const before = await snapshot(config, first.net);
    await first.daemon.stop('first run over');

    // What the first run did: vault orders open in the world, a prediction sale filled, memory kept.
    const orders = before['orders'] as { price: { orderState: string }[]; prediction: unknown[] };
    expect(orders.price.filter((o) => o.orderState === 'open').length).toBeGreaterThanOrEqual(2);
    expect(orders.prediction.length).toBe(1);
    expect((before['memory'] as unknown[]).length).toBeGreaterThanOrEqual(1);

    const second = await run(config, clock, out);
    expect(second.restored).toBe(true);
    // Rebuilt from the data directory alone, before the second daemon did anything new.
    const restored = await snapshot(config, second.net);
    expect(restored['ledger']).toEqual(before['ledger']);
    expect(restored['orders']).toEqual(before['orders']);
    expect(restored['memory']).toEqual(before['memory']);
    expect(restored['intents']).toEqual(before['intents']);

    await driveTo(clock, second.net, START + 15 * MINUTE);
    const after = await snapshot(config, second.net);
    await second.daemon.stop('second run over');
    // The second daemon reconciled and went on: the same open orders, no second placement.
    const open = (o: Record<string, unknown>): unknown[] => (o['orders'] as { price: { orderState: string }[] }).price.filter((x) => x.orderState === 'open');
    expect(open(after)).toEqual(open(before));
    expect((after['intents'] as { kind: string }[]).filter((i) => i.kind !== 'swap')).toEqual(
      (before['intents'] as { kind: string }[]).filter((i) => i.kind !== 'swap'),
    );

    // One database across both runs, nothing moved aside, its chain intact.
    expect(
      readdirSync(join(dir, 'data'))
        .filter((f) => f.endsWith('.sqlite'))
        .sort(),
    ).toEqual(['jupbot-paper.sqlite', 'paper-world.sqlite']);
    const db = new Database(join(config.data_dir, 'jupbot-paper.sqlite'), { readonly: true });
    try {
      expect(verifyAuditChain(db)).toMatchObject({ ok: true });
      const lifecycle = db.prepare("SELECT kind FROM actions WHERE kind LIKE 'daemon.%' ORDER BY id").all();
      expect(lifecycle).toEqual([{ kind: 'daemon.started' }, { kind: 'daemon.stopped' }, { kind: 'daemon.started' }, { kind: 'daemon.stopped' }]);
    } finally {
      db.close();
    }
    expect(out.text).toContain('paper world restored from the data directory');
  }, 120_000);
});
