/**
 * A running paper daemon with a prediction-exit strategy naming a market its world does not have:
 * the strategy's rules show as waiting, "market unknown", in `jupbot status` (and `/status`), and
 * the log says it once however many polls find the id unknown. The daemon is in process, its world
 * reached through an in-process network on a stepping clock; the operations server is real HTTP.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
const REASON = 'market unknown: Jupiter has no market "NBA-1001-M9" (positions.market); see jupbot markets search';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a strategy naming a market that does not exist, in a running daemon', () => {
  it('shows its rules waiting, "market unknown", in jupbot status, and the log says it once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-unknown-market-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'strategies'));
    copyFileSync(join(repoRoot, 'strategies', 'lakers-exit.yaml'), join(dir, 'strategies', 'lakers-exit.yaml'));
    writeFileSync(
      join(dir, 'strategies', 'typo.yaml'),
      'name: typo\nkind: prediction-exit\npositions:\n  market: NBA-1001-M9\nrules:\n  - { id: take-profit, when: { sell_price_at_least: "0.8" } }\n  - { id: stop, when: { sell_price_at_most: "0.2" } }\n',
    );
    const config = parseConfigText(
      `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: unknown-market }\n`,
      join(dir, 'c.yaml'),
      {},
      dir,
    );
    const clock = new SteppingClock(START);
    const net = new InProcessNetwork(clock);
    const { openPaperWorld } = await import('../../../src/paper/openPaperWorld.js');
    const out = new MemoryStream();
    const log = createLogger({ destination: out, clock });
    const world = await openPaperWorld(config, net.simClock(), log, (sim) => {
      net.connect(sim);
      return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
    });
    const daemon = await start(config, { clock, log, random: createRandom('unknown-market'), network: net.fetch, paperWorld: world });
    try {
      // Three minutes: the markets feed polls every 15 s, a dozen times finding the id unknown.
      await driveTo(clock, net, START + 3 * 60_000);
      const served = (await (await fetch(`${daemon.opsUrl}/status`)).json()) as {
        trading: { strategies: Record<string, { rules: { rule: string; state: string; why: string }[] }> };
      };
      expect(served.trading.strategies['typo']?.rules).toEqual([
        { rule: 'take-profit', state: 'waiting', why: REASON },
        { rule: 'stop', state: 'waiting', why: REASON },
      ]);
      // The strategy naming a real market is not affected.
      expect(served.trading.strategies['lakers-exit']?.rules.filter((r) => r.state === 'waiting')).toEqual([]);

      const run = await jupbot(['status', '--url', daemon.opsUrl], { clock });
      expect(run.code).toBe(0);
      const rows = run.stdout.split('\n').filter((line) => line.startsWith('typo ') && line.includes('waiting'));
      expect(rows.map((line) => line.split(/ {2,}/))).toEqual([
        ['typo', 'take-profit', 'armed, waiting', REASON],
        ['typo', 'stop', 'armed, waiting', REASON],
      ]);

      const warnings = out.lines().filter((l) => l['level'] === 'warn' && String(l['msg']).includes('NBA-1001-M9'));
      expect(warnings.map((l) => [l['msg'], l['strategy'], l['marketId']])).toEqual([
        [
          `typo: Jupiter has no market "NBA-1001-M9" (positions.market in ${join(dir, 'strategies', 'typo.yaml')}): its rules wait ("market unknown" in jupbot status) until it exists; see jupbot markets search`,
          'typo',
          'NBA-1001-M9',
        ],
      ]);
    } finally {
      await daemon.stop('test over');
    }
  }, 60_000);
});
