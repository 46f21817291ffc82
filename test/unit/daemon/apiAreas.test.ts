/**
 * An API key scoped to some areas of Jupiter's API (or a region where one is blocked), and feeds for
 * areas nothing needs: the daemon in process, paper mode, its simulated world reached through the
 * simulator's request pipeline on a stepping clock (every request counted by path), its operations
 * server over real HTTP on loopback.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import { InProcessNetwork, SIM_ORIGIN } from '../../../src/backtest/inProcessNetwork.js';
import { SteppingClock } from '../../../src/backtest/steppingClock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start, type Daemon } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { openPaperWorld } from '../../../src/paper/openPaperWorld.js';
import { createRandom } from '../../../src/random.js';
import type { Product } from '../../../src/sim/gateway.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { jupbot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { VAULT_TP } from '../../support/strategyTexts.js';

const START = Date.UTC(2026, 10, 2, 8, 0);
const MIN = 60_000;
/** The key paper mode sends (daemon.ts): scoped in the simulator's gateway as a portal would scope it. */
const PAPER_KEY = 'jupbot-paper-mode';
const NO_ACCESS = 'API key does not have access to this endpoint';

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

/** A vault exit on a token the paper wallet does not hold: it needs Trigger and never places an order. */
const VAULT_IDLE = `name: jup-vault-exit
kind: price-order
sell: JUP
receive: USDC
amount: "50%"
execution: vault
take_profit:
  - at: "+50%"
    sell: "100%"
expires_after: 7d
`;

const PREDICTION = `name: btc-no-take-profit
kind: prediction-exit
positions:
  market: BTC-1006-M1
  side: no
rules:
  - id: lock-in-half
    when:
      sell_price_at_least: "0.55"
    action: sell_part
    share: "50%"
`;

interface Posted {
  readonly type: string;
  readonly text: string;
  readonly area?: string;
  readonly action?: string;
  readonly component?: string;
}

interface Running {
  readonly daemon: Daemon;
  readonly sim: Simulator;
  readonly net: InProcessNetwork;
  readonly clock: SteppingClock;
  readonly strategies: string;
  readonly out: MemoryStream;
  readonly posted: Posted[];
  /** Requests the daemon sent into an area of the API (by path prefix), from `since` (wall ms). */
  calls(prefix: string, since?: number): string[];
  lines(): { level: string; msg: string }[];
  json(path: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

const dirs: string[] = [];
const running: Daemon[] = [];
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop('test over');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function startDaemon(label: string, files: Readonly<Record<string, string>>, gateway: { scopes?: Product[]; blocked?: Product[] }): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), `jupbot-${label}-`));
  dirs.push(dir);
  const strategies = join(dir, 'strategies');
  mkdirSync(strategies);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(strategies, file), text);
  const config = parseConfigText(
    [
      `data_dir: ${dir}/data`,
      `strategies_dir: ${strategies}`,
      'http: { listen: "127.0.0.1:0" }',
      `sim: { seed: ${label} }`,
      'log: { format: json }',
      'notify:',
      '  webhooks:',
      '    - kind: generic',
      '      url: https://hooks.example.com/jupbot',
      '',
    ].join('\n'),
    join(dir, 'c.yaml'),
    {},
    dir,
  );
  const clock = new SteppingClock(START);
  const net = new InProcessNetwork(clock, { record: true });
  const out = new MemoryStream();
  const log = createLogger({ destination: out, clock });
  let sim: Simulator | undefined;
  const world = await openPaperWorld(config, net.simClock(), log, (s) => {
    sim = s;
    net.connect(s);
    return Promise.resolve({ url: SIM_ORIGIN, close: () => Promise.resolve() });
  });
  if (sim === undefined) throw new Error('the world did not start');
  if (gateway.scopes) sim.control.scopeKey(PAPER_KEY, gateway.scopes);
  if (gateway.blocked) sim.control.blockProducts(gateway.blocked);
  const posted: Posted[] = [];
  const hooks = (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    posted.push(JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as Posted);
    return Promise.resolve(new Response('{}', { status: 200 }));
  };
  const daemon = await start(config, { clock, log, random: createRandom(label), network: net.fetch, paperWorld: world, fetch: hooks });
  running.push(daemon);
  return {
    daemon,
    sim,
    net,
    clock,
    strategies,
    out,
    posted,
    calls: (prefix, since = 0) => net.exchanges.filter((e) => e.path.startsWith(prefix) && e.at >= since).map((e) => e.path),
    lines: () => out.lines() as { level: string; msg: string }[],
    async json(path) {
      const answer = await fetch(`${daemon.opsUrl}${path}`);
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    },
  };
}

type Check = { name: string; ok: boolean; detail?: string };
const check = (body: Record<string, unknown>, name: string): Check | undefined => (body['checks'] as Check[]).find((c) => c.name === name);
type AreaJson = { area: string; on: boolean; needed: boolean; strategies: string[]; offSince: number | null; refusal: unknown; nextTryAt: number | null };
const areasOf = (status: Record<string, unknown>): Record<string, AreaJson> => Object.fromEntries((status['areas'] as AreaJson[]).map((a) => [a.area, a]));
type RuleJson = { rule: string; state: string; why: string };
const rulesOf = (status: Record<string, unknown>, strategy: string): RuleJson[] =>
  (status['trading'] as { strategies: Record<string, { rules: RuleJson[] }> }).strategies[strategy]?.rules ?? [];

const iso = (ms: number): string => new Date(ms).toISOString();

describe('a key scoped to Swap and Tokens', () => {
  it('gives a ready daemon that swaps, with trigger and prediction off: said once, their strategies paused, asked again every 10 minutes', async () => {
    const r = await startDaemon('scoped', { 'dca.yaml': DCA, 'tp.yaml': VAULT_TP, 'btc.yaml': PREDICTION }, { scopes: ['Swap', 'Tokens'] });
    await driveTo(r.clock, r.net, START + 35 * MIN);

    // Ready, and the DCA swaps through the areas the key has.
    const ready = await r.json('/readyz');
    expect(ready.status).toBe(200);
    const confirmed = r.daemon.store.db.prepare("SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed'").get() as { n: number };
    expect(confirmed.n).toBeGreaterThanOrEqual(7);

    // Each area said once: at the first refusal, not at every poll in 35 minutes.
    const off = r.posted.filter((p) => p.type === 'area');
    expect(off.map((p) => [p.area, p.action])).toEqual([
      ['prediction', 'off'],
      ['trigger', 'off'],
    ]);
    expect(off[0]?.text).toBe(
      `jupbot: Jupiter API area prediction is OFF: GET /prediction/v1/markets/{marketId} answered 403 "${NO_ACCESS}": this API key (or this region) may not use prediction. ` +
        'Paused until it answers: btc-no-take-profit; the rest trade. Asked again every 10m; give the key access to it, or remove the strategies that need it',
    );
    expect(off[1]?.text).toBe(
      `jupbot: Jupiter API area trigger is OFF: POST /trigger/v2/auth/challenge answered 403 "${NO_ACCESS}": this API key (or this region) may not use trigger. ` +
        'Paused until it answers: sol-take-profit; the rest trade. Asked again every 10m; give the key access to it, or remove the strategies that need it',
    );
    // No feed outage alert for the feeds the refusal paused.
    expect(r.posted.filter((p) => p.type === 'down')).toEqual([]);
    // The log says it once too, and nothing else warns.
    const warnings = r.lines().filter((l) => ['warn', 'error', 'fatal'].includes(l.level));
    expect(warnings.map((l) => l.msg)).toEqual(off.map((p) => p.text.replace('jupbot: ', '').replace(' is OFF: ', ' is off: ')));

    // /status: both areas off, with the refusal; the strategies that need them paused, saying why.
    const status = (await r.json('/status')).body;
    const areas = areasOf(status);
    expect(areas['tokens']).toMatchObject({ on: true, needed: true });
    expect(areas['swap']).toMatchObject({ on: true, needed: true, strategies: ['dca-jup'] });
    expect(areas['trigger']).toEqual({
      area: 'trigger',
      on: false,
      needed: true,
      strategies: ['sol-take-profit'],
      offSince: START,
      refusal: { status: 403, message: NO_ACCESS, call: 'POST /trigger/v2/auth/challenge' },
      nextTryAt: START + 40 * MIN,
    });
    expect(areas['prediction']).toMatchObject({ on: false, strategies: ['btc-no-take-profit'], offSince: START, nextTryAt: START + 40 * MIN });
    const predictionOff = `the prediction area of the Jupiter API is off for this key: GET /prediction/v1/markets/{marketId} answered 403 "${NO_ACCESS}" at ${iso(START)}; asked again every 10m`;
    expect(rulesOf(status, 'btc-no-take-profit')).toEqual([{ rule: 'lock-in-half', state: 'paused', why: `paused: ${predictionOff}` }]);
    expect(rulesOf(status, 'sol-take-profit').map((rule) => [rule.rule, rule.state])).toEqual([['take_profit[0]', 'paused']]);

    // Readiness does not wait for them, and says what is off.
    expect(check(ready.body, 'api-areas')).toEqual({
      name: 'api-areas',
      ok: true,
      detail:
        `trigger off since ${iso(START)} (403 "${NO_ACCESS}" on POST /trigger/v2/auth/challenge), asked again at ${iso(START + 40 * MIN)}; paused: sol-take-profit; ` +
        `prediction off since ${iso(START)} (403 "${NO_ACCESS}" on GET /prediction/v1/markets/{marketId}), asked again at ${iso(START + 40 * MIN)}; paused: btc-no-take-profit`,
    });
    expect(check(ready.body, 'feed:positions')).toEqual({ name: 'feed:positions', ok: true, detail: `paused: ${predictionOff}` });
    expect(check(ready.body, 'trigger-login')?.ok).toBe(true);
    expect(check(ready.body, 'trigger-login')?.detail).toMatch(/^not attempted: the trigger area of the Jupiter API is off for this key: /);

    // While off, one call every 10 minutes into each area: the first polls, then the probes at +10, +20, +30 min.
    expect(r.calls('/trigger/')).toEqual(Array(4).fill('/trigger/v2/auth/challenge'));
    expect(r.calls('/prediction/', START + 1)).toEqual(Array(3).fill('/prediction/v1/trading-status'));

    // `jupbot status` shows the same.
    const text = (await jupbot(['status', '--url', r.daemon.opsUrl], { clock: r.clock })).stdout;
    expect(text).toContain('Trigger login: not attempted: the trigger area is off for this key');
    expect(text).toContain('Jupiter API areas: tokens on, swap on, trigger OFF, prediction OFF');
    expect(text).toContain(
      `AREA OFF: prediction: GET /prediction/v1/markets/{marketId} answered 403 "${NO_ACCESS}" at ${iso(START).replace('.000Z', 'Z')}; asked again at ${iso(START + 40 * MIN).replace('.000Z', 'Z')}; paused: btc-no-take-profit`,
    );
    expect(text).toMatch(new RegExp(`^btc-no-take-profit +lock-in-half +paused +paused: the prediction area of the Jupiter API is off for this key: `, 'm'));
    expect(text).toMatch(/^positions +never +paused: the prediction area of the Jupiter API is off for this key/m);

    // The key gets Trigger: at the next try the area is on again (said once), the login and the order feeds start, the orders are placed.
    r.sim.control.scopeKey(PAPER_KEY, ['Swap', 'Tokens', 'Trigger']);
    await driveTo(r.clock, r.net, START + 42 * MIN);
    const on = r.posted.filter((p) => p.type === 'area' && p.action === 'on');
    expect(on.map((p) => p.text)).toEqual([
      'jupbot: Jupiter API area trigger is on again: POST /trigger/v2/auth/challenge answered after 40m off; its feeds and strategies resume',
    ]);
    expect(new Set(r.calls('/trigger/', START + 40 * MIN))).toEqual(
      new Set([
        '/trigger/v2/auth/challenge',
        '/trigger/v2/auth/verify',
        '/trigger/v2/orders/history',
        '/trigger/v2/orders/history/dca',
        '/trigger/v2/vault',
        '/trigger/v2/vault/register',
        '/trigger/v2/deposit/craft',
        '/trigger/v2/orders/price',
      ]),
    );
    const after = (await r.json('/status')).body;
    expect(areasOf(after)['trigger']).toMatchObject({ on: true, offSince: null, refusal: null });
    expect(rulesOf(after, 'sol-take-profit').map((rule) => rule.state)).not.toContain('paused');
    expect(rulesOf(after, 'btc-no-take-profit').map((rule) => rule.state)).toEqual(['paused']);
  }, 120_000);

  it('with prediction markets blocked in the region, the prediction strategy is paused and the rest trade', async () => {
    const r = await startDaemon('geo', { 'dca.yaml': DCA, 'btc.yaml': PREDICTION }, { blocked: ['Prediction'] });
    await driveTo(r.clock, r.net, START + 11 * MIN);
    expect((await r.json('/readyz')).status).toBe(200);
    const status = (await r.json('/status')).body;
    expect(areasOf(status)['prediction']).toMatchObject({
      on: false,
      refusal: { status: 403, message: 'Prediction is not available in your region', call: 'GET /prediction/v1/markets/{marketId}' },
    });
    expect(rulesOf(status, 'btc-no-take-profit')[0]?.state).toBe('paused');
    expect(r.posted.filter((p) => p.type === 'area').map((p) => [p.area, p.action])).toEqual([['prediction', 'off']]);
    const swaps = r.daemon.store.db.prepare("SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed'").get() as { n: number };
    expect(swaps.n).toBeGreaterThanOrEqual(2);
  }, 60_000);
});

describe('feeds for areas no loaded strategy needs', () => {
  it('make no call; a vault strategy loaded later starts the Trigger login and the order feeds, which stop when it is removed', async () => {
    const r = await startDaemon('unused', { 'dca.yaml': DCA }, {});
    await driveTo(r.clock, r.net, START + 15 * MIN);
    expect(r.calls('/trigger/')).toEqual([]);
    expect(r.calls('/prediction/')).toEqual([]);
    expect(r.calls('/swap/v2/execute').length).toBeGreaterThanOrEqual(3);
    const ready = await r.json('/readyz');
    expect(ready.status).toBe(200);
    expect(check(ready.body, 'api-areas')).toEqual({ name: 'api-areas', ok: true, detail: 'not polled, no loaded strategy needs them: trigger, prediction' });
    expect(check(ready.body, 'feed:orders')).toEqual({
      name: 'feed:orders',
      ok: true,
      detail: 'paused: no loaded strategy needs Trigger vault orders (the trigger area)',
    });
    expect(check(ready.body, 'trigger-login')).toEqual({
      name: 'trigger-login',
      ok: true,
      detail: 'not attempted: no loaded strategy needs Trigger vault orders (the trigger area)',
    });

    // Hot reload: the first scan that sees the file starts the login and the order feeds.
    const loadedAt = r.clock.now();
    writeFileSync(join(r.strategies, 'vault.yaml'), VAULT_IDLE);
    await driveTo(r.clock, r.net, loadedAt + MIN);
    expect(r.calls('/trigger/', loadedAt).slice(0, 4).sort()).toEqual([
      '/trigger/v2/auth/challenge',
      '/trigger/v2/auth/verify',
      '/trigger/v2/orders/history',
      '/trigger/v2/orders/history/dca',
    ]);
    expect(r.lines().some((l) => l.msg === 'Jupiter API areas in use: tokens, swap, trigger; not polled (no loaded strategy needs them): prediction')).toBe(
      true,
    );

    // Removed: nothing needs Trigger any more (it placed nothing), and the order feeds stop.
    unlinkSync(join(r.strategies, 'vault.yaml'));
    await driveTo(r.clock, r.net, loadedAt + 2 * MIN);
    const removedAt = r.clock.now();
    await driveTo(r.clock, r.net, removedAt + 10 * MIN);
    expect(r.calls('/trigger/', removedAt)).toEqual([]);
    expect(r.calls('/prediction/')).toEqual([]);
  }, 60_000);
});
