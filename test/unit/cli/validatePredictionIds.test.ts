/**
 * `jupbot validate` and `jupbot plan` ask the configured API whether the prediction markets and
 * events strategies name exist: in paper mode the embedded simulator in process (a new world, or the
 * one a paper run kept), in live mode Jupiter (nock here) with the key from the environment. An
 * unknown id fails validate at its file:line:col with did-you-mean candidates; without the API the
 * ids are said not to be checked, and nothing fails for it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { ExitCode } from '../../../src/exitCodes.js';
import { createLogger } from '../../../src/ops/log.js';
import type { Simulator } from '../../../src/sim/simulator.js';
import { jupbot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

const START = Date.UTC(2026, 10, 2, 8, 0);
const API = 'https://api.jup.test';
const KEY = 'jup-test-key-5f0c2a9e7d3b41c8a6e2';
const dirs: string[] = [];

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const exit = (market: string, more = ''): string =>
  `name: ${market.toLowerCase()}-exit\nkind: prediction-exit\npositions:\n  market: ${market}\n${more}rules:\n  - { id: take-profit, when: { sell_price_at_least: "0.8" } }\n`;

/** A workspace whose strategies_dir holds `files`; the config is paper mode unless `extra` says otherwise. */
function workspace(files: Record<string, string>, extra = 'sim: { seed: ids }\n'): { dir: string; config: string; file: (name: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-ids-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'strategies'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'strategies', name), text);
  const config = join(dir, 'c.yaml');
  writeFileSync(config, `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\n${extra}`);
  return { dir, config, file: (name) => join(dir, 'strategies', name) };
}

const run = (args: string[], env: Record<string, string> = {}): ReturnType<typeof jupbot> => jupbot(args, { clock: new ManualClock(START), env });

describe('validate: prediction ids against the paper world', () => {
  it('fails on a market the simulator does not have, at the id, with the close one; passes a real one', async () => {
    const w = workspace({ 'good.yaml': exit('NBA-1001-M1'), 'typo.yaml': exit('NBA-1001-M2') });
    const out = await run(['validate', '--config', w.config]);
    expect(out.code).toBe(ExitCode.InvalidInput);
    expect(out.stdout).toContain(`ok: ${w.file('good.yaml')} (nba-1001-m1-exit, prediction-exit)\n`);
    expect(out.stdout).not.toContain('typo.yaml');
    expect(out.stderr).toBe(
      `${w.file('typo.yaml')}:4:11: positions.market: no such market "NBA-1001-M2" in the paper world (did you mean "NBA-1001-M1"?); jupbot markets search TEXT lists ids\n`,
    );
  });

  it('an unknown event, and a market that is not in the event named with it', async () => {
    const w = workspace({
      'event.yaml': 'name: e\nkind: prediction-exit\npositions: { event: FED-109 }\n',
      'mixed.yaml': exit('BTC-1006-M2', '  event: FED-1009\n'),
      'both.yaml': exit('FED-1009-M2', '  event: FED-1009\n'),
    });
    const out = await run(['validate', '--config', w.config]);
    expect(out.code).toBe(ExitCode.InvalidInput);
    expect(out.stdout).toContain(`ok: ${w.file('both.yaml')}`);
    expect(out.stderr.trimEnd().split('\n')).toEqual([
      `${w.file('event.yaml')}:3:21: positions.event: no such event "FED-109" in the paper world (did you mean "FED-1009"?); jupbot events lists ids`,
      `${w.file('mixed.yaml')}:5:10: positions.event: market "BTC-1006-M2" belongs to event "BTC-1006", not "FED-1009": no position would match both`,
    ]);
  });

  it('reads the world a paper run kept: a successor market passes, which a new world would not have', async () => {
    const w = workspace({ 'next-game.yaml': exit('NBA-1013-M1') });
    const config = parseConfigText(`data_dir: ${w.dir}/data\nsim: { seed: ids }\n`, w.config, {}, w.dir);
    mkdirSync(join(w.dir, 'data'));
    let sim: Simulator | undefined;
    const { openPaperWorld } = await import('../../../src/paper/openPaperWorld.js');
    const world = await openPaperWorld(config, new ManualClock(START), createLogger({ destination: new MemoryStream() }), (s) => {
      sim = s;
      return Promise.resolve({ url: 'http://127.0.0.1:1', close: () => Promise.resolve() });
    });
    const before = await run(['validate', '--config', w.config]);
    expect(before.stderr).toContain('no such market "NBA-1013-M1" in the paper world');
    sim?.control.settleMarket('NBA-1001-M1', 'no');
    await world.close();
    const after = await run(['validate', '--config', w.config]);
    expect([after.code, after.stderr]).toEqual([ExitCode.Ok, '']);
    expect(after.stdout).toContain(`ok: ${w.file('next-game.yaml')} (nba-1013-m1-exit, prediction-exit)\n`);
  });

  it('plan shows the rules of a strategy naming an unknown market waiting, "market unknown"', async () => {
    const w = workspace({ 'typo.yaml': exit('NBA-1001-M2') });
    const out = await run(['plan', '--config', w.config]);
    expect(out.code).toBe(ExitCode.Ok);
    expect(out.stdout).toContain(
      '  now: held (take-profit) — market unknown: Jupiter has no market "NBA-1001-M2" (positions.market); see jupbot markets search\n',
    );
  });
});

describe('validate: prediction ids against Jupiter (live mode)', () => {
  // validate checks the wallet's key file as start-up would: a real one, mode 0600.
  const liveConfig = (): string => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'jupbot-ids-key-')), 'id.json');
    dirs.push(dirname(keyFile));
    writeFileSync(keyFile, JSON.stringify(Array.from(Keypair.generate().secretKey)), { mode: 0o600 });
    return `mode: live\napi: { base_url: ${API} }\nwallet: { keypair_file: ${keyFile} }\n`;
  };

  it('asks with the key from the environment: an unknown market fails, with candidates from the API', async () => {
    const w = workspace({ 'typo.yaml': exit('KXSB-26-SAE'), 'good.yaml': exit('KXSB-26-SEA') }, liveConfig());
    const api = nock(API, { reqheaders: { 'x-api-key': KEY } });
    api
      .get('/prediction/v1/markets/KXSB-26-SAE')
      .reply(404, { type: 'invalid_request_error', message: 'Market not found', code: 'not_found', request_id: 'r1' });
    api.get('/prediction/v1/markets/KXSB-26-SEA').reply(200, { marketId: 'KXSB-26-SEA', eventId: 'KXSB-26', status: 'open', result: null });
    api
      .get('/prediction/v1/events')
      .query({ includeMarkets: 'true', start: '0', end: '100' })
      .reply(200, { data: [{ eventId: 'KXSB-26', markets: [{ marketId: 'KXSB-26-SEA', status: 'open', result: null }] }] });
    api.get('/prediction/v1/events/search').query({ query: 'KXSB-26-SAE', limit: '20' }).reply(200, { data: [] });
    const out = await run(['validate', '--config', w.config], { JUPITER_API_KEY: KEY });
    expect(out.code).toBe(ExitCode.InvalidInput);
    expect(out.stderr).toBe(
      `${w.file('typo.yaml')}:4:11: positions.market: no such market "KXSB-26-SAE" on ${API} (did you mean "KXSB-26-SEA"?); jupbot markets search TEXT lists ids\n`,
    );
    expect(out.stdout).toContain(`ok: ${w.file('good.yaml')} (kxsb-26-sea-exit, prediction-exit, tokens not resolved offline in live mode)\n`);
    expect(api.isDone()).toBe(true);
  });

  it('without a key, or without an answer, says the ids were not checked and does not fail for it', async () => {
    const w = workspace({ 'typo.yaml': exit('KXSB-26-SAE') }, liveConfig());
    const keyless = await run(['validate', '--config', w.config]);
    expect(keyless.code).toBe(ExitCode.Ok);
    expect(keyless.stdout).toContain(
      `note: prediction market and event ids not checked: JUPITER_API_KEY is not set: live mode asks ${API} with that key (or set api.keyless: true)\n`,
    );
    // No interceptor and no network: the request fails below HTTP.
    const unreachable = await run(['validate', '--config', w.config], { JUPITER_API_KEY: KEY });
    expect(unreachable.code).toBe(ExitCode.Ok);
    expect(unreachable.stderr).toBe('');
    expect(unreachable.stdout).toMatch(
      /^note: prediction market and event ids not checked: could not ask https:\/\/api\.jup\.test: GET \/prediction\/v1\/markets\/\{marketId\} → JUPITER_NETWORK_ERROR: [^\n]+$/m,
    );
    expect(unreachable.stdout).toContain(`ok: ${w.file('typo.yaml')}`);

    const plan = await run(['plan', '--config', w.config]);
    expect(plan.code).toBe(ExitCode.Ok);
    expect(plan.stdout.split('\n')[1]).toBe(
      `note: prediction market and event ids not checked: JUPITER_API_KEY is not set: live mode asks ${API} with that key (or set api.keyless: true)`,
    );
  });
});
