/**
 * Crash test: the daemon runs as a child process in live mode against a simulator in this
 * process and is killed with SIGKILL at 50 random points of its money flows, restarting each time.
 * Afterwards the simulator's ledger and orders must match the database exactly: no transaction
 * executed twice, no fill missing or doubled, every order placed by one journaled intent, the audit
 * chain intact.
 *
 * The flows are the strategies in test/crash/strategies (drop a YAML file there to add one): swaps,
 * vault orders (single, OCO, ladder, ratchet by PATCH, DCA), local DCA and two prediction exits. The
 * test moves prices as the daemon polls (every PRICE_STEP_REQUESTS requests it serves), so orders
 * fill, stops fire and strategies arm again. The daemon and the simulator share the system clock;
 * nothing here sleeps: every wait is on a request, a log line or an exit, under one overall timeout.
 *
 * Part of `npm test` (about 90 s of real time on an idle 2-core machine); JUPBOT_CRASH=0 skips it. JUPBOT_CRASH_SEED
 * replays a run; JUPBOT_CRASH_KILLS changes the number of kills; JUPBOT_CRASH_TSX=1 starts the
 * daemon with tsx instead of a bundle (daemonEntry.ts).
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../src/random.js';
import { JUP, SOL, settlePrices, stepPrices } from './support/prices.js';
import { startCrashSim, type CrashSim, type SeenRequest } from './support/crashSim.js';
import { daemonEntry, type DaemonEntry } from './support/daemonEntry.js';
import { killRunningDaemons, spawnDaemon, type DaemonProcess } from './support/daemonProcess.js';
import { describeKill, matches, planKill, type KillPoint } from './support/killPlan.js';
import { pendingIntents } from './support/pendingIntents.js';
import { checkLedgerAgainstJournal, type SimDcaOrder, type SimPriceOrder } from './support/ledgerCheck.js';
import { createWorkspace, swapAlternates, type Workspace } from './support/workspace.js';
import { jupbot } from '../support/cli.js';

const SEED = process.env.JUPBOT_CRASH_SEED ?? 'crash-7';
const KILLS = Number(process.env.JUPBOT_CRASH_KILLS ?? 50);
/** One price move per this many requests served (the daemon makes ~25 a second; most of a short life is start-up). */
const PRICE_STEP_REQUESTS = 8;
/** A start that reaches no kill point within this many requests is killed there anyway. */
const LIFE_REQUEST_LIMIT = 900;
/** Chance that a strategy with an alternate version is swapped to the other one between two starts. */
const ALTERNATE_CHANCE = 0.25;
const FUNDING_REASONS = ['paper-wallet', 'fund'];
const TEST_TIMEOUT_MS = 600_000;
const SETTLE_TIMEOUT_MS = 60_000;
/**
 * Settled (NO wins) before the last start, so the half of the paper wallet's NO position there that
 * prediction-part-btc-no.yaml kept is claimed (`claim-position`) by the last daemon.
 */
const CLAIM_MARKET = 'BTC-1006-M1';

interface Life {
  readonly point: KillPoint;
  victim: SeenRequest | undefined;
  requests: number;
  fallback: boolean;
  /** ms from spawn to the first request, and to the kill. */
  firstRequestMs: number | undefined;
  killMs: number | undefined;
}

let entry: DaemonEntry | undefined;
afterAll(() => {
  // A failure or a timeout must not leave a daemon running against a closed simulator.
  killRunningDaemons();
  entry?.dispose();
});

/** Runs one daemon until its kill point, kills it with SIGKILL and waits for it to be gone. */
async function lifeUntilKill(cs: CrashSim, ws: Workspace, point: KillPoint, onRequest: () => void): Promise<Life> {
  const life: Life = { point, victim: undefined, requests: 0, fallback: false, firstRequestMs: undefined, killMs: undefined };
  const spawnedAt = performance.now();
  const daemon = spawnDaemon((entry as DaemonEntry).args, ws.configFile, ws.env);
  let matched = 0;
  cs.hook = (request, phase) => {
    if (daemon.dead()) return;
    if (phase === 'received') {
      life.firstRequestMs ??= Math.round(performance.now() - spawnedAt);
      life.requests += 1;
      onRequest();
      if (life.victim === undefined && matches(point, request)) {
        matched += 1;
        if (matched === point.k) life.victim = request;
      }
      if (life.victim === undefined && life.requests >= LIFE_REQUEST_LIMIT) {
        life.victim = request;
        life.fallback = true;
        daemon.kill('SIGKILL');
        return;
      }
    }
    if (life.victim?.seq === request.seq && phase === point.phase) daemon.kill('SIGKILL');
  };
  const exit = await daemon.exited;
  life.killMs = Math.round(performance.now() - spawnedAt);
  cs.hook = undefined;
  if (exit.signal !== 'SIGKILL') {
    throw new Error(
      `the daemon exited on its own (code ${exit.code}, signal ${exit.signal}) before its kill point; stderr:\n${daemon.stderr().slice(-3000)}\nlast lines:\n${daemon.lines
        .slice(-15)
        .map((l) => JSON.stringify(l))
        .join('\n')}`,
    );
  }
  return life;
}

/** The last start: no kill, prices still; resolves once the journal is quiescent and every fill is recorded. */
async function settle(cs: CrashSim, ws: Workspace, daemon: DaemonProcess): Promise<string | null> {
  // Reconciliation runs before the first tick; the checks below see what it leaves.
  await daemon.waitForLine((l) => String(l.msg).startsWith('jupbot started'), 'the start');
  const db = new Database(ws.database, { readonly: true, fileMustExist: true });
  const pendingQuery = db.prepare("SELECT count(*) AS n FROM intents WHERE state IN ('planned', 'signed', 'sent', 'expired')");
  const fillQuery = db.prepare('SELECT 1 FROM fills WHERE signature = ?');
  const orderQuery = db.prepare('SELECT 1 FROM trigger_orders WHERE id = ?');
  const caughtUp = (): boolean => {
    if ((pendingQuery.get() as { n: number }).n > 0) return false;
    const ledger = cs.sim.control.dumpLedger().entries;
    if (!ledger.some((e) => e.wallet === ws.wallet && e.reason === 'prediction-claim')) return false;
    for (const e of ledger) {
      if (e.wallet === ws.wallet && (e.reason === 'swap' || e.reason === 'keeper-fill') && fillQuery.get(e.ref) === undefined) return false;
      // A prediction sale's proceeds (ref `<sell signature>:fill`) and a claim are recorded under
      // the signature that asked for them.
      if (
        e.wallet === ws.wallet &&
        (e.reason === 'prediction-sell' || e.reason === 'prediction-claim') &&
        fillQuery.get(e.ref.replace(/:fill$/, '')) === undefined
      )
        return false;
    }
    const orders = cs.sim.control.dumpOrders() as { price: SimPriceOrder[]; dca: SimDcaOrder[] };
    return (
      orders.price.every((o) => o.userPubkey !== ws.wallet || !o.events.some((e) => e.type === 'deposit') || orderQuery.get(o.id) !== undefined) &&
      orders.dca.every((o) => o.wallet !== ws.wallet || orderQuery.get(o.id) !== undefined)
    );
  };
  let seen = 0;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<string | null>((resolve) => {
      // A bound on the wait, not a pause: the answer comes from the hook below.
      timer = setTimeout(() => resolve(`not settled within ${SETTLE_TIMEOUT_MS} ms`), SETTLE_TIMEOUT_MS);
      cs.hook = (_request, phase) => {
        // Looked at every few answers the daemon got: it has then had the chance to write them down.
        if (phase === 'delivered' && ++seen % 10 === 0 && caughtUp()) resolve(null);
      };
      void daemon.exited.then(() => resolve('the daemon exited while settling'));
    });
  } finally {
    clearTimeout(timer);
    cs.hook = undefined;
    db.close();
  }
}

// About 90 s of real time (51 daemon starts); JUPBOT_CRASH=0 skips it for a quick local run.
describe.skipIf(process.env.JUPBOT_CRASH === '0')('crash test: SIGKILL at random points of the money flows', () => {
  it(
    `${KILLS} kills and restarts: the simulator's ledger and orders match the audit log exactly`,
    async () => {
      const startedAt = performance.now();
      entry = await daemonEntry();
      const kills = createRandom(`${SEED}:kills`);
      const moves = createRandom(`${SEED}:prices`);
      const cs = await startCrashSim(SEED, 250);
      try {
        const ws = createWorkspace({ simUrl: cs.url, walletSeed: createRandom(`${SEED}:wallet`).bytes(32), pollPrices: '250ms', pollOrders: '500ms' });
        cs.sim.control.paperWallet(ws.wallet);
        cs.sim.control.fund(ws.wallet, 1_000n * 10n ** 6n, JUP);
        let served = 0;
        const onRequest = (): void => {
          if (++served % PRICE_STEP_REQUESTS === 0) stepPrices(cs.sim.control, moves);
        };

        const lives: Life[] = [];
        const edits = createRandom(`${SEED}:edits`);
        let strategyEdits = 0;
        for (let i = 0; i < KILLS; i++) {
          lives.push(await lifeUntilKill(cs, ws, planKill(kills), onRequest));
          strategyEdits += swapAlternates(ws, edits, ALTERNATE_CHANCE).length;
        }

        // The last start: no kill, prices at levels where no local exit fires, so the work in hand
        // settles, and the BTC prediction market settles so the last daemon claims. A clean stop may
        // leave an intent mid-way on purpose (the next start reconciles it); then the daemon is
        // started once more to let reconciliation finish it.
        settlePrices(cs.sim.control);
        cs.sim.control.settleMarket(CLAIM_MARKET, 'no');
        let unsettled: string | null = null;
        let exit: Awaited<DaemonProcess['exited']> | undefined;
        let last: DaemonProcess | undefined;
        let cleanStarts = 0;
        while (cleanStarts < 3) {
          cleanStarts += 1;
          last = spawnDaemon(entry.args, ws.configFile, ws.env);
          unsettled = await settle(cs, ws, last);
          last.kill('SIGTERM');
          exit = await last.exited;
          if (unsettled !== null || exit.code !== 0 || pendingIntents(ws.database) === 0) break;
        }

        const report = checkLedgerAgainstJournal({
          database: ws.database,
          wallet: ws.wallet,
          ledger: cs.sim.control.dumpLedger(),
          priceOrders: (cs.sim.control.dumpOrders() as { price: SimPriceOrder[] }).price,
          dcaOrders: (cs.sim.control.dumpOrders() as { dca: SimDcaOrder[] }).dca,
          fundingReasons: FUNDING_REASONS,
        });
        const verify = await jupbot(['audit', '--db', ws.database, 'verify', '--json']);
        const summary = {
          seed: SEED,
          kills: lives.length,
          restarts: lives.length,
          fallbackKills: lives.filter((l) => l.fallback).length,
          cleanStarts,
          killPoints: lives.map(
            (l) => `${describeKill(l.point, l.victim)} (first request ${l.firstRequestMs} ms, killed ${l.killMs} ms, ${l.requests} requests)`,
          ),
          strategies: ws.strategies,
          strategyEdits,
          ...report.counts,
          solPrice: cs.sim.control.price(SOL),
          runtimeMs: Math.round(performance.now() - startedAt),
          workspace: ws.dir,
        };
        process.stderr.write(`crash test summary: ${JSON.stringify(summary, null, 2)}\n`);
        if (report.problems.length > 0) process.stderr.write(`crash test problems:\n${report.problems.join('\n')}\n`);

        expect(unsettled, 'the last daemon settles: no pending intent, every fill and order recorded').toBeNull();
        expect(exit, `SIGTERM stops the last daemon cleanly; stderr: ${last?.stderr().slice(-2000)}`).toEqual({ code: 0, signal: null });
        expect(verify.code, verify.stdout + verify.stderr).toBe(0);
        expect(cs.sim.control.checkInvariants()).toEqual({ supplyMismatches: [], negativeBalances: [] });
        expect(report.problems).toEqual([]);
        expect(report.counts.duplicateExecutions).toBe(0);
        expect(report.counts.missingFills).toBe(0);
        // Not vacuous: the kills landed while money moved, and every flow ran.
        expect(lives.filter((l) => l.point.target !== 'any' && !l.fallback).length).toBeGreaterThan(KILLS / 2);
        expect(report.counts.swaps).toBeGreaterThanOrEqual(5);
        expect(report.counts.deposits).toBeGreaterThanOrEqual(3);
        expect(report.counts.keeperFills).toBeGreaterThanOrEqual(1);
        // Both prediction exits (a partial sell of the BTC NO position, a whole sell of the NBA YES
        // one), each once, and the claim of what the partial sell kept.
        expect(report.counts.predictionSales).toBe(2);
        expect(report.counts.predictionClaims).toBe(1);
        expect(report.counts.intents['partial-sell:confirmed']).toBe(1);
        expect(report.counts.intents['sell-position:confirmed']).toBe(1);
        expect(report.counts.intents['claim-position:confirmed']).toBe(1);
        // Kept on failure: the database and the summary's workspace path are the evidence.
        rmSync(ws.dir, { recursive: true, force: true });
      } finally {
        await cs.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
