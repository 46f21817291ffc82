/**
 * Crash test of paper mode's kept world: the daemon runs in paper mode as a child process, its
 * simulated world inside it (kept in the data directory, store/paperWorldRecords.ts), and is killed
 * with SIGKILL at random points of its money flows, restarting each time on the world it kept. At the
 * end the world is rebuilt from the data directory alone, in this process, and its ledger and orders
 * must match the journal exactly, as the live crash test demands of a world that never died: no
 * transaction executed twice, no fill missing or doubled, the audit chain intact.
 *
 * The kill points are counted in the daemon's log lines after its start line (a random 1–25th line),
 * so they land during placements, swaps and sales rather than at idle. About 30 s of real time;
 * JUPBOT_CRASH=0 skips it, JUPBOT_CRASH_SEED replays a run.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { InProcessNetwork, SIM_ORIGIN } from '../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../src/backtest/steppingClock.js';
import { parseConfigText } from '../../src/config/loadConfig.js';
import { createLogger } from '../../src/ops/log.js';
import { openPaperWorld } from '../../src/paper/openPaperWorld.js';
import { paperReachedAt } from '../../src/paper/paperClock.js';
import { createRandom } from '../../src/random.js';
import type { LedgerDump } from '../../src/sim/ledger.js';
import { jupbot } from '../support/cli.js';
import { MemoryStream } from '../support/memoryStream.js';
import { daemonEntry, type DaemonEntry } from './support/daemonEntry.js';
import { killRunningDaemons, spawnDaemon } from './support/daemonProcess.js';
import { lastStopUnfinished, pendingByState, pendingIntents } from './support/pendingIntents.js';
import { checkLedgerAgainstJournal, type SimDcaOrder, type SimPriceOrder } from './support/ledgerCheck.js';
import { STRATEGY_FIXTURES } from './support/workspace.js';

const SEED = process.env.JUPBOT_CRASH_SEED ?? 'crash-paper-3';
const KILLS = Number(process.env.JUPBOT_CRASH_PAPER_KILLS ?? 12);
/** Kept to flows that need no scripted prices: swaps on a schedule, vault placements and DCA, prediction sales. */
const STRATEGIES = ['dca-swap-sol.yaml', 'vault-single-sol.yaml', 'vault-dca-usdc-sol.yaml', 'prediction-part-btc-no.yaml', 'prediction-sell-nba-yes.yaml'];
const TEST_TIMEOUT_MS = 300_000;

let entry: DaemonEntry | undefined;
afterAll(() => {
  killRunningDaemons();
  entry?.dispose();
});

function workspace(): { dir: string; configFile: string; dataDir: string; configText: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-crash-paper-'));
  const dataDir = join(dir, 'data');
  mkdirSync(join(dir, 'strategies'), { recursive: true });
  for (const file of STRATEGIES) copyFileSync(join(STRATEGY_FIXTURES, file), join(dir, 'strategies', file));
  // Twenty simulated seconds per real one: a life of a second or two sees several DCA runs and polls.
  const configText = [
    'mode: paper',
    `data_dir: ${dataDir}`,
    `strategies_dir: ${join(dir, 'strategies')}`,
    'poll: { prices: 2s, orders: 4s, positions: 4s, scores: 10s, strategies: 1h }',
    'http: { listen: "127.0.0.1:0" }',
    `sim: { seed: ${SEED}, speed: 20 }`,
    'log: { level: info, format: json }',
    '',
  ].join('\n');
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, configText);
  return { dir, configFile, dataDir, configText };
}

describe.skipIf(process.env.JUPBOT_CRASH === '0')('crash test: paper mode keeps its world through SIGKILL', () => {
  it(
    `${KILLS} kills: the world rebuilt from the data directory matches the journal exactly`,
    async () => {
      entry = await daemonEntry();
      const ws = workspace();
      const database = join(ws.dataDir, 'jupbot-paper.sqlite');
      const kills = createRandom(`${SEED}:kills`);
      const env = { JUPBOT_KEYPAIR: '' };
      let lines = 0;
      for (let i = 0; i < KILLS; i++) {
        const daemon = spawnDaemon(entry.args, ws.configFile, env);
        await daemon.waitForLine((l) => String(l.msg).startsWith('jupbot started'), 'the start');
        const k = kills.int(1, 25);
        const after = daemon.lines.length;
        // The k-th line after the start, or the daemon's first exit: whichever comes first.
        await daemon.waitForLine((l) => daemon.lines.indexOf(l) >= after + k - 1, `line ${k} after the start`).catch(() => undefined);
        daemon.kill('SIGKILL');
        const exit = await daemon.exited;
        expect(exit.signal, daemon.stderr().slice(-2000)).toBe('SIGKILL');
        lines += daemon.lines.length;
      }

      // The last starts: let the work in hand settle, then stop cleanly. The quiet look is taken at a
      // DCA fill, the moment furthest from the next run (one every 250 ms of real time here). A stop
      // does not wait for work in hand: a run planned between the look and the signal stays planned
      // (nothing was sent for it), the stop's row says so, and the next start resolves it; so start
      // again until a stop leaves the journal quiet.
      let cleanStarts = 0;
      for (;;) {
        cleanStarts += 1;
        const last = spawnDaemon(entry.args, ws.configFile, env);
        await last.waitForLine((l) => String(l.msg).startsWith('jupbot started'), 'the last start');
        await last.waitForLine((l) => last.lines.indexOf(l) > 40 && String(l.msg).includes(': bought ') && pendingIntents(database) === 0, 'a quiet journal');
        last.kill('SIGTERM');
        expect(await last.exited, last.stderr().slice(-2000)).toEqual({ code: 0, signal: null });
        const left = pendingByState(database);
        expect(lastStopUnfinished(database)).toEqual(left);
        if (Object.keys(left).length === 0) break;
        expect(cleanStarts, `each clean stop left intents unfinished, the last ${JSON.stringify(left)}`).toBeLessThan(5);
      }

      // The world, rebuilt from the data directory alone, at the instant it had reached.
      const config = parseConfigText(ws.configText, ws.configFile, {}, ws.dir);
      const clock = new SteppingClock(paperReachedAt(ws.dataDir) ?? 0);
      const net = new InProcessNetwork(clock);
      const world = await openPaperWorld(config, net.simClock(), createLogger({ destination: new MemoryStream() }), (sim) => {
        net.connect(sim);
        return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
      });
      const get = async <T>(path: string): Promise<T> => (await (await net.fetch(`${SIM_ORIGIN}${path}`)).json()) as T;
      const ledger = await get<LedgerDump>('/__sim/ledger');
      const orders = await get<{ price: SimPriceOrder[]; dca: SimDcaOrder[] }>('/__sim/orders');
      const invariants = await get<unknown>('/__sim/invariants');
      await world.close();
      const db = new Database(database, { readonly: true });
      const wallet = (
        JSON.parse((db.prepare("SELECT data FROM actions WHERE kind = 'daemon.started' LIMIT 1").get() as { data: string }).data) as { wallet: string }
      ).wallet;
      db.close();

      const report = checkLedgerAgainstJournal({
        database,
        wallet,
        ledger,
        priceOrders: orders.price,
        dcaOrders: orders.dca,
        fundingReasons: ['paper-wallet', 'fund'],
      });
      const verify = await jupbot(['audit', '--db', database, 'verify', '--json']);
      process.stderr.write(`paper crash test: ${JSON.stringify({ seed: SEED, kills: KILLS, cleanStarts, lines, ...report.counts, dir: ws.dir })}\n`);
      if (report.problems.length > 0) process.stderr.write(`paper crash test problems:\n${report.problems.join('\n')}\n`);

      expect(report.problems).toEqual([]);
      expect(report.counts.duplicateExecutions).toBe(0);
      expect(report.counts.missingFills).toBe(0);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      expect(invariants).toEqual({ supplyMismatches: [], negativeBalances: [] });
      // Not vacuous: money moved across the kills, through every kind of flow kept.
      expect(report.counts.swaps).toBeGreaterThanOrEqual(5);
      expect(report.counts.deposits).toBeGreaterThanOrEqual(2);
      expect(report.counts.predictionSales).toBe(2);
      // One database and one world across every restart.
      expect(
        readdirSync(ws.dataDir)
          .filter((f) => f.endsWith('.sqlite'))
          .sort(),
      ).toEqual(['jupbot-paper.sqlite', 'paper-world.sqlite']);
      rmSync(ws.dir, { recursive: true, force: true });
    },
    TEST_TIMEOUT_MS,
  );
});
