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
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { createRandom } from '../../../src/random.js';
import { jupbot, repoRoot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

const START = Date.UTC(2026, 10, 2, 8, 0);
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

describe('jupbot status', () => {
  it('prints a running daemon’s state for people, and its document with --json', async () => {
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
    try {
      await driveTo(clock, net, START + 3 * 60_000);
      const run = await jupbot(['status', '--url', daemon.opsUrl], { clock });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const text = run.stdout;
      expect(text).toContain(`PAPER mode (simulated world at ${SIM_ORIGIN})`);
      expect(text).toContain(`wallet ${daemon.engine.wallet}; Trigger login: logged in until 2026-11-03T08:0`);
      for (const feed of ['prices', 'positions', 'orders', 'dca', 'balances']) expect(text).toMatch(new RegExp(`^${feed} +\\d+s +fresh$`, 'm'));
      // The take-profit's two OCOs (four legs) are open in the vault; half the NO position was sold in the first minute.
      expect(text).toMatch(/^sol-take-profit +price-order +4 +—$/m);
      expect(text.match(/^[0-9a-f-]{12} +sol-take-profit +price oco +open +2\.5 SOL +\$(135|180|210)$/gm)).toHaveLength(4);
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
