/**
 * `jupbot markets search` and `jupbot events`: in paper mode against the embedded simulator in
 * process (a new world, and the world a paper run kept), in live mode against nock, and when the
 * API cannot be asked (exit 8, one line).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** A config file in a fresh directory (its data_dir holds no paper world until a test makes one). */
function workspace(extra = 'sim: { seed: markets }\n'): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-markets-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'strategies'));
  const config = join(dir, 'c.yaml');
  writeFileSync(config, `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\n${extra}`);
  return { dir, config };
}

const NEW_WORLD = 'a new paper world (no paper run has kept one yet)';

describe('jupbot markets search and jupbot events, paper mode', () => {
  it('search lists the simulator’s markets whose titles match, with both ids on every row', async () => {
    const w = workspace();
    const run = await jupbot(['markets', 'search', 'lakers', '--config', w.config], { clock: new ManualClock(START) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(ExitCode.Ok);
    expect(run.stdout).toBe(
      [
        'event     market       category  title                          status  sell YES  sell NO  closes (UTC)',
        'NBA-1001  NBA-1001-M1  sports    Lakers vs Celtics: Lakers win  open       $0.49    $0.49  2026-11-02T11:00Z',
        '',
        `1 market in 1 event, from ${NEW_WORLD}`,
        '',
      ].join('\n'),
    );
    const none = await jupbot(['markets', 'search', 'curling', 'final', '--config', w.config], { clock: new ManualClock(START) });
    expect([none.code, none.stdout]).toEqual([ExitCode.Ok, `no event or market title contains "curling final" (from ${NEW_WORLD})\n`]);
  });

  it('search --json: exact prices as decimal text', async () => {
    const w = workspace();
    const run = await jupbot(['markets', 'search', 'Fed', '--json', '--config', w.config], { clock: new ManualClock(START) });
    expect(run.code).toBe(ExitCode.Ok);
    expect(JSON.parse(run.stdout)).toEqual({
      source: NEW_WORLD,
      more: false,
      events: [
        {
          eventId: 'FED-1009',
          title: 'Fed decision in January',
          category: 'economics',
          subcategory: 'fed',
          beginAt: new Date(START).toISOString(),
          live: false,
          markets: [
            {
              marketId: 'FED-1009-M1',
              title: 'Rate cut',
              status: 'open',
              result: null,
              closeTime: new Date(START + 12 * 86_400_000).toISOString(),
              sellYesUsd: '0.24',
              sellNoUsd: '0.74',
              buyYesUsd: '0.26',
              buyNoUsd: '0.76',
            },
            {
              marketId: 'FED-1009-M2',
              title: 'No change',
              status: 'open',
              result: null,
              closeTime: new Date(START + 12 * 86_400_000).toISOString(),
              sellYesUsd: '0.69',
              sellNoUsd: '0.29',
              buyYesUsd: '0.71',
              buyNoUsd: '0.31',
            },
          ],
        },
      ],
    });
  });

  it('events lists events with their market ids, by category, and says when there are more', async () => {
    const w = workspace();
    const crypto = await jupbot(['events', '--category', 'crypto', '--json', '--config', w.config], { clock: new ManualClock(START) });
    expect(crypto.code).toBe(ExitCode.Ok);
    const events = (JSON.parse(crypto.stdout) as { events: { eventId: string; title: string; markets: { marketId: string; title: string }[] }[] }).events;
    expect(events.map((e) => [e.eventId, e.title, e.markets.map((m) => [m.marketId, m.title])])).toEqual([
      [
        'BTC-1006',
        'Bitcoin price at month end',
        [
          ['BTC-1006-M1', 'BTC above $120,000 on Jan 31'],
          ['BTC-1006-M2', 'BTC above $100,000 on Jan 31'],
        ],
      ],
      ['SOL-1007', 'SOL above $200 tomorrow', [['SOL-1007-M1', 'SOL above $200 at 00:00 UTC']]],
    ]);

    const first = await jupbot(['events', '--limit', '2', '--config', w.config], { clock: new ManualClock(START) });
    expect(first.code).toBe(ExitCode.Ok);
    expect(first.stdout.split('\n').map((line) => line.split(/ {2,}/).slice(0, 4))).toEqual([
      ['event', 'market', 'category', 'title'],
      ['NBA-1001', 'NBA-1001-M1', 'sports', 'Lakers vs Celtics: Lakers win'],
      ['NFL-1002', 'NFL-1002-M1', 'sports', 'Chiefs vs Bills: Chiefs win'],
      [''],
      [`2 markets in 2 events, from ${NEW_WORLD}; more with a larger --limit`],
      [''],
    ]);

    const bad = await jupbot(['events', '--category', 'weather', '--config', w.config]);
    expect(bad.code).toBe(ExitCode.Usage);
    expect(bad.stderr).toContain("error: option '--category <name>' argument 'weather' is invalid. Allowed choices are all, crypto, sports");
  });

  it('reads the world a paper run kept: a settled event’s successor is listed, the settled market with its result', async () => {
    const w = workspace();
    const config = parseConfigText(`data_dir: ${w.dir}/data\nsim: { seed: kept }\n`, w.config, {}, w.dir);
    mkdirSync(join(w.dir, 'data'));
    const clock = new ManualClock(START);
    let sim: Simulator | undefined;
    const { openPaperWorld } = await import('../../../src/paper/openPaperWorld.js');
    const world = await openPaperWorld(config, clock, createLogger({ destination: new MemoryStream() }), (s) => {
      sim = s;
      return Promise.resolve({ url: 'http://127.0.0.1:1', close: () => Promise.resolve() });
    });
    // The game's market settles: the world rolls the event over to the next game (the teams swap sides).
    sim?.control.settleMarket('NBA-1001-M1', 'yes');
    await world.close();

    const run = await jupbot(['markets', 'search', 'lakers', '--json', '--config', w.config], { clock: new ManualClock(START + 60_000) });
    expect(run.stderr).toBe('');
    const answer = JSON.parse(run.stdout) as {
      source: string;
      events: { eventId: string; title: string; markets: { marketId: string; status: string; result: string | null }[] }[];
    };
    expect(answer.source).toBe(`the paper world kept in ${join(w.dir, 'data', 'paper-world.sqlite')} (as of ${new Date(START).toISOString()})`);
    expect(answer.events.map((e) => [e.eventId, e.title, e.markets.map((m) => [m.marketId, m.status, m.result])])).toEqual([
      ['NBA-1001', 'Lakers vs Celtics', [['NBA-1001-M1', 'closed', 'yes']]],
      ['NBA-1013', 'Boston Celtics vs Los Angeles Lakers', [['NBA-1013-M1', 'open', null]]],
    ]);
  });
});

describe('jupbot markets search and jupbot events, live mode', () => {
  // A wallet is named because live mode requires one; nothing here reads it.
  const live = (): { dir: string; config: string } => workspace(`mode: live\napi: { base_url: ${API} }\nwallet: { keypair_file: ./id.json }\n`);

  it('asks Jupiter with the key from the environment', async () => {
    const w = live();
    const scope = nock(API, { reqheaders: { 'x-api-key': KEY } })
      .get('/prediction/v1/events/search')
      .query({ query: 'super bowl', limit: '20' })
      .reply(200, {
        data: [
          {
            eventId: 'KXSB-26',
            category: 'sports',
            metadata: { eventId: 'KXSB-26', title: 'Super Bowl LX' },
            markets: [
              {
                marketId: 'KXSB-26-SEA',
                title: 'Seattle',
                status: 'open',
                result: null,
                closeTime: 1_770_000_000,
                pricing: { sellYesPriceUsd: 685000, sellNoPriceUsd: 305000, buyYesPriceUsd: 695000, buyNoPriceUsd: 315000 },
              },
            ],
          },
        ],
      });
    const run = await jupbot(['markets', 'search', 'super', 'bowl', '--config', w.config], { env: { JUPITER_API_KEY: KEY } });
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')[1]?.split(/ {2,}/)).toEqual([
      'KXSB-26',
      'KXSB-26-SEA',
      'sports',
      'Super Bowl LX: Seattle',
      'open',
      '$0.69',
      '$0.31',
      '2026-02-02T02:40Z',
    ]);
    expect(run.stdout).toContain(`1 market in 1 event, from ${API}\n`);
    expect(scope.isDone()).toBe(true);
  });

  it('cannot reach the API: one line naming where and why, exit 8', async () => {
    const w = live();
    const run = await jupbot(['events', '--config', w.config], { env: { JUPITER_API_KEY: KEY } });
    expect(run.code).toBe(ExitCode.ApiUnreachable);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^jupbot: could not ask https:\/\/api\.jup\.test: GET \/prediction\/v1\/events → JUPITER_NETWORK_ERROR: [^\n]+\n$/);
    expect(run.stderr).not.toContain(KEY);
  });

  it('an error answer, and no key at all: exit 8 with the reason', async () => {
    const w = live();
    nock(API).get('/prediction/v1/events/search').query(true).reply(401, { code: 401, message: 'Invalid API key' });
    const refused = await jupbot(['markets', 'search', 'lakers', '--config', w.config], { env: { JUPITER_API_KEY: KEY } });
    expect([refused.code, refused.stderr]).toEqual([
      ExitCode.ApiUnreachable,
      `jupbot: could not ask ${API}: GET /prediction/v1/events/search → 401 JUPITER_UNAUTHORIZED: Invalid API key\n`,
    ]);
    const keyless = await jupbot(['markets', 'search', 'lakers', '--config', w.config]);
    expect([keyless.code, keyless.stderr]).toEqual([
      ExitCode.ApiUnreachable,
      `jupbot: cannot ask the prediction API: JUPITER_API_KEY is not set: live mode asks ${API} with that key (or set api.keyless: true)\n`,
    ]);
  });
});
