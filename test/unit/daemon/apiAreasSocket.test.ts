/**
 * The scoped key of apiAreas.test.ts once more, with every byte over real sockets: the paper world's
 * simulator listens on 127.0.0.1 and the daemon reaches it with its own HTTP client, as `jupbot run`
 * does. The clock is a ManualClock; each step advances it and then waits on the daemon's operations
 * server, which lets the requests in flight finish.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start, type Daemon } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { openPaperWorld } from '../../../src/paper/openPaperWorld.js';
import { PAPER_API_KEY } from '../../../src/paper/paperWorld.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { VAULT_TP } from '../../support/strategyTexts.js';

const START = Date.UTC(2026, 10, 2, 8, 0);
const STEP = 5_000;

const DCA = `name: dca-jup
kind: dca
buy: JUP
pay_with: USDC
amount: "2"
execution: swap
schedule:
  cron: "*/5 * * * *"
  timezone: UTC
max_runs_per_day: 288
`;

const dirs: string[] = [];
const running: Daemon[] = [];
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop('test over');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a key scoped to Swap and Tokens, over real sockets', () => {
  it('the simulator answers 403 on the wire; the daemon is ready, swaps, and shows trigger off', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-areas-socket-'));
    dirs.push(dir);
    const strategies = join(dir, 'strategies');
    mkdirSync(strategies);
    writeFileSync(join(strategies, 'dca.yaml'), DCA);
    writeFileSync(join(strategies, 'tp.yaml'), VAULT_TP);
    const config = parseConfigText(
      `data_dir: ${dir}/data\nstrategies_dir: ${strategies}\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: areas-socket }\nlog: { format: json }\n`,
      join(dir, 'c.yaml'),
      {},
      dir,
    );
    const clock = new ManualClock(START);
    const out = new MemoryStream();
    const log = createLogger({ destination: out, clock });
    let simUrl = '';
    const world = await openPaperWorld(config, clock, log, async (sim: Simulator) => {
      const served = await sim.listen();
      simUrl = served.url;
      return served;
    });
    // Scoped as Jupiter's portal scopes a key, through the simulator's own control route on the wire.
    const scoped = await fetch(`${simUrl}/__sim/gateway/scopes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: PAPER_API_KEY, products: ['Swap', 'Tokens'] }),
    });
    expect(scoped.status).toBe(200);
    const refused = await fetch(`${simUrl}/trigger/v2/vault?walletPubkey=x`, { headers: { 'x-api-key': PAPER_API_KEY } });
    expect([refused.status, await refused.json()]).toEqual([403, { code: 403, message: 'API key does not have access to this endpoint' }]);

    const daemon = await start(config, { clock, log, paperWorld: world });
    running.push(daemon);
    const json = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
      const answer = await fetch(`${daemon.opsUrl}${path}`);
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    const swaps = (): number =>
      (daemon.store.db.prepare("SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed'").get() as { n: number }).n;

    // Eleven simulated minutes: two DCA runs are due (at :05 and :10).
    for (let at = START; at < START + 11 * 60_000; at += STEP) {
      await clock.advance(STEP);
      await json('/healthz');
    }

    const ready = await json('/readyz');
    expect(ready.status).toBe(200);
    expect(swaps()).toBe(2);
    const status = await json('/status');
    const areas = Object.fromEntries((status.body['areas'] as { area: string; on: boolean }[]).map((a) => [a.area, a.on]));
    expect(areas).toEqual({ tokens: true, swap: true, trigger: false, prediction: true });
    const warnings = out.lines().filter((l) => (l as { level: string }).level === 'warn') as { msg: string }[];
    expect(warnings.filter((w) => w.msg.startsWith('Jupiter API area trigger is off: ')).length).toBe(1);
  });
});
