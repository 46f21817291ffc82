/**
 * `sim.speed` runs simulated time faster; it must not shorten the time a request is given on the
 * wire. Here the paper daemon runs the demo strategies at speed 120 for ten simulated minutes over a
 * network that takes 150 ms of real time per exchange: slow, but far inside every timeout. Real time
 * is the SteppingClock the scaled clock is made from (five seconds of it), simulated time is 120
 * times that, and the latency sleeps on the real clock: nothing here waits for real.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { InProcessNetwork, SIM_ORIGIN } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { openPaperWorld } from '../../../src/paper/openPaperWorld.js';
import { paperClock } from '../../../src/paper/paperClock.js';
import { createRandom } from '../../../src/random.js';
import { ScaledClock } from '../../../src/scaledClock.js';
import { repoRoot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

const START = Date.UTC(2026, 10, 3, 8, 0);
const SPEED = 120;
/** Real milliseconds each exchange spends on the wire: more than 10 s (the API timeout) / 120 and 15 s (the RPC's) / 120. */
const LATENCY_MS = 150;
/** Ten simulated minutes, in real (base clock) milliseconds. */
const REAL_MS = (10 * 60_000) / SPEED;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('paper mode at sim.speed 120', () => {
  it('ten simulated minutes over a 150 ms network log no timeout: timeouts run on real time, polls on simulated time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-paper-speed-'));
    dirs.push(dir);
    cpSync(join(repoRoot, 'strategies'), join(dir, 'strategies'), { recursive: true });
    const config = parseConfigText(
      [
        `data_dir: ${dir}/data`,
        `strategies_dir: ${dir}/strategies`,
        `lock_dir: ${dir}/locks`,
        'http: { listen: "127.0.0.1:0" }',
        `sim: { seed: paper-speed, speed: ${SPEED} }`,
        '',
      ].join('\n'),
      join(dir, 'config.yaml'),
      {},
      dir,
    );
    const real = new SteppingClock(START);
    const net = new InProcessNetwork(real);
    // As `jupbot run` builds it: the daemon's clock is the real one sped up by sim.speed.
    const clock = paperClock(real, config);
    expect(clock).toBeInstanceOf(ScaledClock);
    const out = new MemoryStream();
    const log = createLogger({ destination: out, clock });
    const world = await openPaperWorld(config, new ScaledClock(net.simClock(), SPEED, START), log, (sim) => {
      net.connect(sim);
      return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
    });
    // Every exchange (Jupiter and RPC alike) takes LATENCY_MS of real time before it reaches the simulator.
    const slowNetwork: typeof globalThis.fetch = async (input, init) => {
      await real.sleep(LATENCY_MS, init?.signal ?? undefined);
      return net.fetch(input, init);
    };
    // Starting and stopping make requests too (login, reconciliation; work in hand): real time moves meanwhile.
    const driving = async <T>(work: Promise<T>): Promise<T> => {
      let busy = true;
      const done = work.finally(() => {
        busy = false;
      });
      while (busy) {
        await net.settle();
        const next = real.nextWake();
        if (next !== undefined && busy) await real.advance(next - real.monotonic());
      }
      return done;
    };
    const daemon = await driving(start(config, { clock, log, random: createRandom('paper-speed'), network: slowNetwork, paperWorld: world }));
    const polls = { updated: 0, failed: 0 };
    daemon.engine.feeds.prices.events.on('updated', () => polls.updated++);
    daemon.engine.feeds.prices.events.on('failed', () => polls.failed++);
    await driveTo(real, net, START + REAL_MS);
    const simulatedMs = clock.now() - START;
    await driving(daemon.stop('ten simulated minutes are over'));

    expect(simulatedMs).toBe(10 * 60_000);
    const timeouts = out.text.split('\n').filter((line) => /TIMEOUT|no answer within/.test(line));
    expect(timeouts).toEqual([]);
    // The price feed kept polling on simulated time: one poll per 10 s, each waiting its 150 ms (18 simulated s) on the wire.
    expect(polls.failed).toBe(0);
    expect(polls.updated).toBeGreaterThanOrEqual(20);
  }, 120_000);
});
