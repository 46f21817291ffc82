/**
 * A paper day on the shapes mainnet builds: the demo strategies run for half a simulated day against the
 * simulator, whose swaps are `route_v2` / `shared_accounts_route_v2` with Jupiter's fee inside,
 * through venues across the whole index range (some past the bundled table, learned from the
 * simulator's on-chain IDL). The guard must accept every genuine transaction: the day ends with no
 * `guard.refused` row, and swaps of both forms landed.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { InProcessNetwork, SIM_ORIGIN } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { openPaperWorld } from '../../../src/paper/openPaperWorld.js';
import { createRandom } from '../../../src/random.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { repoRoot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

const START = Date.UTC(2026, 10, 2, 0, 0);
/** Half a day: the daily SOL buy (09:00 Berlin) and some fifty frequent ones fall in it. */
const DAY = 12 * 3_600_000;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a paper day', () => {
  it('signs every genuine transaction of the demo strategies: no guard refusal, swaps of both v2 forms, through learned venues, landed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-paper-day-'));
    dirs.push(dir);
    cpSync(join(repoRoot, 'strategies'), join(dir, 'strategies'), { recursive: true });
    // Two frequent DCA buys besides the demo's daily one: JUP's route splits over two venues (the shared form), BONK's goes through one.
    for (const [name, token, cron] of [
      ['dca-jup-often', 'JUP', '5,35 * * * *'],
      ['dca-bonk-often', 'BONK', '10,40 * * * *'],
    ] as const) {
      writeFileSync(
        join(dir, 'strategies', `${name}.yaml`),
        [
          `name: ${name}`,
          'kind: dca',
          `buy: ${token}`,
          'pay_with: USDC',
          'amount: "2"',
          'execution: swap',
          'schedule:',
          `  cron: "${cron}"`,
          '  timezone: UTC',
          '',
        ].join('\n'),
      );
    }
    const config = parseConfigText(
      [
        `data_dir: ${dir}/data`,
        `strategies_dir: ${dir}/strategies`,
        `lock_dir: ${dir}/locks`,
        'http: { listen: "127.0.0.1:0" }',
        'sim: { seed: paper-day }',
        // Feeds polled less often than by default (and the strategy files rescanned hourly): the same
        // swaps are decided over the half day and the guard judges the same transactions, with a
        // fraction of the ticks to run.
        'poll: { prices: 30s, orders: 60s, scores: 60s, strategies: 1h }',
        '',
      ].join('\n'),
      join(dir, 'config.yaml'),
      {},
      dir,
    );
    const clock = new SteppingClock(START);
    const out = new MemoryStream();
    const net = new InProcessNetwork(clock);
    const log = createLogger({ destination: out, clock });
    const world = await openPaperWorld(config, net.simClock(), log, (sim) => {
      net.connect(sim);
      return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
    });
    const daemon = await start(config, { clock, log, random: createRandom('paper-day'), network: net.fetch, paperWorld: world });
    await driveTo(clock, net, START + DAY);
    await daemon.stop('the day is over');

    const db = new Database(join(config.data_dir, 'jupbot-paper.sqlite'), { readonly: true });
    try {
      const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;
      const refusals = db.prepare("SELECT data FROM actions WHERE kind = 'guard.refused'").all() as { data: string }[];
      expect(refusals.map((r) => (JSON.parse(r.data) as { reason: string }).reason)).toEqual([]);
      type Route = { form: string; venues: string[]; unknownVenue: unknown; feeBps: number };
      const routes = (db.prepare("SELECT data FROM actions WHERE kind = 'intent.signed'").all() as { data: string }[]).flatMap(
        (r) => (JSON.parse(r.data) as { route?: Route[] }).route ?? [],
      );
      expect(routes.length).toBeGreaterThanOrEqual(45);
      expect(count("SELECT count(*) AS n FROM actions WHERE kind = 'strategy.rejected'")).toBe(0);
      expect(new Set(routes.map((r) => r.form))).toEqual(new Set(['route_v2', 'shared_accounts_route_v2']));
      // The daily SOL buy goes through venue 141, past the bundled table: walked with what the on-chain IDL taught.
      expect(routes.filter((r) => r.venues.includes('AuroraClob') && r.unknownVenue === null && r.feeBps === 2).length).toBeGreaterThanOrEqual(1);
      expect(count("SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed'")).toBeGreaterThanOrEqual(10);
      expect(count("SELECT count(*) AS n FROM intents WHERE state = 'failed'")).toBe(0);
      expect(verifyAuditChain(db)).toMatchObject({ ok: true });
    } finally {
      db.close();
    }
    expect(out.text).toContain('route venues: on-chain IDL of the program deployed at slot 301234567');
  }, 600_000);
});
