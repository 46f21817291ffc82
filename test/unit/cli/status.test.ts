/**
 * `jupbot status` against a running daemon (in process, paper mode, its world reached through an
 * in-process network on a stepping clock; the operations server is real HTTP on loopback) and
 * against none.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { InProcessNetwork, SIM_ORIGIN } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { type Daemon, start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { createRandom } from '../../../src/random.js';
import { jupbot, repoRoot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';
import type { StatusOrderJson } from '../../../src/audit/statusOrders.js';
import type { UnrealizedJson } from '../../../src/audit/unrealizedFigures.js';
import { decimalTextOf, formatFixed, ONE, parseFixedRounded, unitsToFixed } from '../../../src/money/decimal.js';
import { usdText } from '../../../src/money/humanFigures.js';
import type { BalancesJson } from '../../../src/ops/statusMarket.js';
import { listBasisRecords } from '../../../src/store/basisRecords.js';

const START = Date.UTC(2026, 10, 2, 8, 0);
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A paper daemon on the simulator running the SOL take-profit (two OCOs) and the BTC NO exit, three minutes in. */
async function paperDaemon(): Promise<{ daemon: Daemon; clock: SteppingClock }> {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-status-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'strategies'));
  for (const name of ['sol-take-profit.yaml', 'btc-no-take-profit.yaml']) copyFileSync(join(repoRoot, 'strategies', name), join(dir, 'strategies', name));
  const config = parseConfigText(
    `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: status }\n`,
    join(dir, 'c.yaml'),
    {},
    dir,
  );
  const clock = new SteppingClock(START);
  const net = new InProcessNetwork(clock);
  const { openPaperWorld } = await import('../../../src/paper/openPaperWorld.js');
  const log = createLogger({ destination: new MemoryStream(), clock });
  const world = await openPaperWorld(config, net.simClock(), log, (sim) => {
    net.connect(sim);
    return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
  });
  const daemon = await start(config, { clock, log, random: createRandom('status'), network: net.fetch, paperWorld: world });
  await driveTo(clock, net, START + 3 * 60_000);
  return { daemon, clock };
}

describe('jupbot status', () => {
  it('prints a running daemon’s state for people, and its document with --json', async () => {
    const { daemon, clock } = await paperDaemon();
    try {
      const run = await jupbot(['status', '--url', daemon.opsUrl], { clock });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const text = run.stdout;
      expect(text).toContain(`PAPER mode (simulated world at ${SIM_ORIGIN})`);
      expect(text).toContain(`wallet ${daemon.engine.wallet}; Trigger login: logged in until 2026-11-03T08:0`);
      for (const feed of ['prices', 'positions', 'orders', 'dca', 'balances']) expect(text).toMatch(new RegExp(`^${feed} +\\d+s +fresh$`, 'm'));
      // The take-profit's two OCOs (four legs, two orders) are open in the vault; half the NO position was sold in the first minute.
      expect(text).toMatch(/^sol-take-profit +price-order +2 +—$/m);
      expect(text).toContain("clock: times in UTC, on the paper world's simulated clock (at real speed; it reads 2026-11-02T08:03:00Z");
      expect(text).toMatch(/^btc-no-take-profit +prediction-exit +0 +2026-11-02T08:00:\d\dZ$/m);
      expect(text).toMatch(/^open order +strategy/m);
      expect(text).toMatch(/^2026-11-02T08:00:0\dZ +btc-no-take-profit +sell +15 BTC-1006-M1 NO +8\.\d+ USDC$/m);
      expect(text).toMatch(/^today \(since 2026-11-02T00:00:00Z\): 1 trade, realized P&L \$0\.00, fees \$0\.26$/m);

      const json = await jupbot(['status', '--url', daemon.opsUrl, '--json'], { clock });
      const served = (await (await fetch(`${daemon.opsUrl}/status`)).json()) as Record<string, unknown>;
      expect(JSON.parse(json.stdout)).toEqual(served);
      expect(served['today']).toEqual({ since: '2026-11-02T00:00:00.000Z', trades: 1, realizedUsd: '0', feesUsd: '0.26' });
    } finally {
      await daemon.stop('test over');
    }
  }, 60_000);

  it('serves an OCO as one order of two legs, each trigger’s distance from the feed’s price, balances in dollars and the unrealized P&L against the basis', async () => {
    const { daemon, clock } = await paperDaemon();
    try {
      const served = (await (await fetch(`${daemon.opsUrl}/status`)).json()) as {
        orders: StatusOrderJson[];
        openOrders: unknown[];
        balances: BalancesJson;
        unrealized: UnrealizedJson;
      };
      // The price the strategies decide on, as the price feed holds it.
      const feedPrice = daemon.engine.feeds.prices.state().value?.get(SOL)?.usdPrice;
      const price = parseFixedRounded(decimalTextOf(feedPrice) ?? '') as bigint;
      expect(price > 0n).toBe(true);
      const pct = (target: bigint): string => formatFixed(((target - price) * 100n * ONE) / price);

      // Four legs as the Trigger API lists them; two orders of two legs each for the operator.
      expect(served.openOrders).toHaveLength(4);
      expect(served.orders).toHaveLength(2);
      for (const order of served.orders) {
        expect(order.orderType).toBe('oco');
        expect(order.legs).toHaveLength(2);
        expect(order.sells).toMatchObject({ symbol: 'SOL', amount: '2.5' });
        expect(order.watched).toMatchObject({ mint: SOL, priceUsd: formatFixed(price) });
      }
      const byTarget = served.orders.map((o) => o.triggers.map((t) => [t.leg, t.priceUsd, t.condition, t.distancePct, t.move]));
      expect(byTarget).toEqual(
        expect.arrayContaining([
          [
            ['take-profit', '180', 'above', pct(180n * ONE), 'rise'],
            ['stop-loss', '135', 'below', pct(135n * ONE), 'fall'],
          ],
          [
            ['take-profit', '210', 'above', pct(210n * ONE), 'rise'],
            ['stop-loss', '135', 'below', pct(135n * ONE), 'fall'],
          ],
        ]),
      );

      // Balances: what the balances feed read, each token at the feed's price (USDC at $1).
      const read = daemon.engine.feeds.balances.state().value;
      const solUnits = read?.byMint.get(SOL) ?? 0n;
      const usdcUnits = read?.byMint.get(USDC) ?? 0n;
      const sol = served.balances.tokens.find((t) => t.symbol === 'SOL');
      const usdc = served.balances.tokens.find((t) => t.symbol === 'USDC');
      expect(sol).toEqual({
        mint: SOL,
        symbol: 'SOL',
        amount: formatFixed(unitsToFixed(solUnits, 9)),
        priceUsd: formatFixed(price),
        valueUsd: formatFixed((unitsToFixed(solUnits, 9) * price) / ONE),
      });
      expect(usdc).toEqual({
        mint: USDC,
        symbol: 'USDC',
        amount: formatFixed(unitsToFixed(usdcUnits, 6)),
        priceUsd: '1',
        valueUsd: formatFixed(unitsToFixed(usdcUnits, 6)),
      });
      expect(served.balances.totalUsd).toBe(formatFixed((unitsToFixed(solUnits, 9) * price) / ONE + unitsToFixed(usdcUnits, 6)));

      // Unrealized: the 10 SOL held before jupbot (5 now in the vault orders) at the first price the daemon saw, against the feed's price.
      const [basis] = listBasisRecords(daemon.store.db).filter((b) => b.mint === SOL);
      expect(basis).toMatchObject({ kind: 'basis.observed', units: 10_000_000_000n });
      const basisPrice = parseFixedRounded(basis?.priceUsd ?? '') as bigint;
      const expected = 10n * price - 10n * basisPrice;
      expect(served.unrealized.holdings).toEqual([
        {
          strategy: null,
          preHeld: true,
          mint: SOL,
          symbol: 'SOL',
          amount: '10',
          costUsd: formatFixed(10n * basisPrice),
          basis: { source: 'first-price', priceUsd: formatFixed(basisPrice), at: basis?.at },
          priceUsd: formatFixed(price),
          priceFrom: 'feed',
          valueUsd: formatFixed(10n * price),
          unrealizedUsd: formatFixed(expected),
        },
      ]);
      expect(served.unrealized.usd).toBe(formatFixed(expected));

      // The same, for people: one row per OCO and one under it for its stop, each with its distance and the way to go.
      const text = (await jupbot(['status', '--url', daemon.opsUrl], { clock })).stdout;
      const two = (target: number): string => {
        const p = Number(formatFixed(price));
        const d = ((target - p) / p) * 100;
        return `${d > 0 ? '+' : '-'}${Math.abs(d).toFixed(2)}%`;
      };
      const head = (target: number): RegExp =>
        new RegExp(
          `^[0-9a-f-]{12} +sol-take-profit +price oco \\(2 legs\\) +open +2\\.5 SOL +SOL \\$[\\d.]+ +take-profit ≥ \\$${target} +\\${two(target)} \\(must rise\\)$`,
          'm',
        );
      expect(text).toMatch(head(180));
      expect(text).toMatch(head(210));
      expect(text.match(new RegExp(`^ +stop loss ≤ \\$135 +${two(135)} \\(must fall\\)$`, 'gm'))).toHaveLength(2);
      expect(text).toMatch(/^SOL +[\d.]+ +\$[\d.]+ +\$[\d.]+$/m);
      expect(text).toMatch(/^USDC +[\d.]+ +\$1 +\$[\d.]+$/m);
      expect(text).toMatch(/^wallet value \$[\d.]+, read at 2026-11-02T08:03:00Z; held in open orders, not counted: 5 SOL$/m);
      expect(text).toMatch(/^\(held before jupbot\) +SOL +10 +\$1500\.00 \(first price \$150\) /m);
      expect(text).toContain(`unrealized P&L ${usdText(expected)} at 2026-11-02T08:03:00Z; basis: cost of what each strategy holds`);
      expect(text).toContain('protections: none configured');
    } finally {
      await daemon.stop('test over');
    }
  }, 60_000);

  it('says where it asked and exits 7 when no daemon answers (from --url or the config)', async () => {
    const port = await closedPort();
    const byUrl = await jupbot(['status', '--url', `http://127.0.0.1:${port}`]);
    expect(byUrl.code).toBe(7);
    expect(byUrl.stderr).toBe(
      `no jupbot answered at http://127.0.0.1:${port}/status (ECONNREFUSED): is the daemon running, and is this its config (http.listen) or --url?\n`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-status-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'c.yaml'), `http: { listen: "127.0.0.1:${port}" }\n`);
    const byConfig = await jupbot(['status', '--config', join(dir, 'c.yaml')]);
    expect([byConfig.code, byConfig.stderr]).toEqual([7, byUrl.stderr]);
    writeFileSync(join(dir, 'zero.yaml'), 'http: { listen: "127.0.0.1:0" }\n');
    const zero = await jupbot(['status', '--config', join(dir, 'zero.yaml')]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('has port 0 (any free port): pass the daemon');
  });
});
