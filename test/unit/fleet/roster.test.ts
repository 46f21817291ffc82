/**
 * The fleet's roster end to end: three paper daemons on one stepping clock register in a real
 * redis-server; `jupbot fleet status` lists them all ok with the very figures each one's `/status`
 * serves; a daemon that dies without a word stays listed with its heartbeat's age until one interval
 * has passed, then shows silent (exit 9); a clean stop shows stopped. Redis gone: the daemon trades
 * on without a warning per beat, and its entry is back once Redis is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetStatusJson } from '../../../src/fleet/fleetStatus.js';
import { openFleetRedis } from '../../../src/fleet/fleetRedis.js';
import { readRoster } from '../../../src/fleet/rosterReader.js';
import { Secret } from '../../../src/secret.js';
import { type RedisServer, redisPresent, startRedis } from '../../support/redisServer.js';
import { VAULT_TP } from '../../support/strategyTexts.js';
import { MIN, rosterWorld, roundTrip, SEC, type RosterMember } from './rosterWorld.js';

/** What `/status` says of today: the figures the roster must repeat exactly. */
async function statusToday(m: RosterMember): Promise<{ realizedUsd: string; trades: number; openOrders: number; wallet: string }> {
  const doc = await m.json('/status');
  const today = doc['today'] as { realizedUsd: string; trades: number };
  return { realizedUsd: today.realizedUsd, trades: today.trades, openOrders: (doc['orders'] as unknown[]).length, wallet: doc['wallet'] as string };
}

const usdc = (dollars: number): bigint => BigInt(Math.round(dollars * 1e6));

describe.skipIf(!redisPresent)('the fleet roster, with paper daemons on a real redis-server', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('lists every daemon with its /status figures; a killed one goes silent after one interval, a stopped one shows stopped', async () => {
    const w = await rosterWorld('t', server.url, [
      { strategies: { 'tp.yaml': VAULT_TP } },
      { strategies: { 'tp.yaml': VAULT_TP } },
      { strategies: { 'tp.yaml': VAULT_TP } },
    ]);
    const [a, b, c] = w.members as [RosterMember, RosterMember, RosterMember];
    await w.drive(5 * MIN);
    // Today's realized P&L, different in each: +12.345678, -2.5, and nothing.
    roundTrip(a, 'sol-take-profit', 'a1', usdc(150), usdc(162.345678), w.clock.now());
    roundTrip(b, 'sol-take-profit', 'b1', usdc(150), usdc(147.5), w.clock.now());
    // Past /status's 10 s reuse of its database figures, so both read the fills.
    await w.drive(11 * SEC);
    for (const m of w.members) expect(await m.roster().beat()).toBe(true);

    const listed = await w.status(['--json']);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const doc = JSON.parse(listed.stdout) as FleetStatusJson;
    expect(doc.fleet).toBe('t');
    expect(doc.redis).toBe(server.url);
    expect(doc.daemons).toHaveLength(3);
    for (const m of w.members) {
      const own = await statusToday(m);
      const d = doc.daemons.find((x) => x.wallet === m.daemon.engine.wallet);
      expect(d).toMatchObject({
        state: 'ok',
        reason: null,
        mode: 'paper',
        opsUrl: m.daemon.opsUrl,
        pid: process.pid,
        heartbeatMs: 10_000,
        heartbeatAgeMs: 0,
        lastHeartbeat: new Date(w.clock.now()).toISOString(),
        stoppedAt: null,
        id: `paper-${m.daemon.engine.wallet}`,
      });
      // Exactly what the daemon's own /status says, at the same instant.
      expect(d?.today).toMatchObject({ realizedUsd: own.realizedUsd, trades: own.trades, current: true });
      expect(d?.openOrders).toBe(own.openOrders);
      expect(d?.wallet).toBe(own.wallet);
    }
    const of = (m: RosterMember) => doc.daemons.find((x) => x.wallet === m.daemon.engine.wallet);
    expect(of(a)?.today.realizedUsd).toBe('12.345678');
    expect(of(b)?.today.realizedUsd).toBe('-2.5');
    expect(of(c)?.today.realizedUsd).toBe('0');
    expect(of(a)?.openOrders).toBe(1);
    expect(of(a)?.lastFill).toEqual({
      at: new Date(w.clock.now() - 11 * SEC + 1).toISOString(),
      strategy: 'sol-take-profit',
      summary: 'sell 1 SOL for 162.345678 USDC',
    });
    expect(of(c)?.lastFill).toBeNull();
    // The fleet's total, in fixed point: 12.345678 - 2.5 + 0, never 9.845677999….
    expect(doc.total).toEqual({
      daemons: 3,
      ok: 3,
      unhealthy: 0,
      stopped: 0,
      silent: 0,
      realizedUsd: '9.845678',
      notToday: 0,
      openOrders: 3,
      expected: 3,
      missing: 0,
    });

    const text = await w.status();
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('fleet t (redis://127.0.0.1:');
    expect(text.stdout).toContain('3 daemons, 3 ok, 0 unhealthy, 0 silent, 0 stopped');
    expect(text.stdout).toContain(`${a.daemon.engine.wallet.slice(0, 4)}…${a.daemon.engine.wallet.slice(-4)}`);
    expect(text.stdout).toContain('fleet total: P&L today $9.85, 3 open orders');

    // C dies without a word right after a beat: listed as it was until one heartbeat interval has passed.
    expect(await c.roster().beat()).toBe(true);
    c.roster().detach();
    await w.drive(10 * SEC - 1);
    const before = JSON.parse((await w.status(['--json'])).stdout) as FleetStatusJson;
    expect(before.daemons.find((d) => d.wallet === c.daemon.engine.wallet)).toMatchObject({ state: 'ok', heartbeatAgeMs: 9_999 });
    expect((await w.status()).code).toBe(0);
    await w.drive(1);
    const silent = await w.status(['--json']);
    expect(silent.code).toBe(9);
    expect(silent.stderr).toBe('jupbot: fleet t: 1 silent, 0 unhealthy of 3 daemons\n');
    const after = JSON.parse(silent.stdout) as FleetStatusJson;
    expect(after.daemons.find((d) => d.wallet === c.daemon.engine.wallet)).toMatchObject({ state: 'silent', heartbeatAgeMs: 10_000 });
    // The others beat on: never silent, however long the clock runs.
    expect(after.daemons.filter((d) => d.wallet !== c.daemon.engine.wallet).map((d) => d.state)).toEqual(['ok', 'ok']);
    expect(after.total).toMatchObject({ ok: 2, silent: 1 });

    // B stops cleanly: marked stopped, with the time.
    const stoppedAt = w.clock.now();
    await b.daemon.stop('operator');
    const final = await w.status();
    expect(final.code).toBe(9);
    expect(final.stdout).toContain('1 ok, 0 unhealthy, 1 silent, 1 stopped');
    expect(final.stdout).toMatch(new RegExp(`^SILENT: ${c.daemon.engine.wallet} on .+: no heartbeat since .+, expected every 10s$`, 'm'));
    expect(final.stdout).toContain(`stopped: ${b.daemon.engine.wallet} on `);
    const finalDoc = JSON.parse((await w.status(['--json'])).stdout) as FleetStatusJson;
    expect(finalDoc.daemons.find((d) => d.wallet === b.daemon.engine.wallet)).toMatchObject({
      state: 'stopped',
      stoppedAt: new Date(stoppedAt).toISOString(),
      today: { realizedUsd: '-2.5' },
    });
    await w.drive(1 * MIN);
    // Stopped stays stopped (never silent), and the stopped entry keeps its day-long expiry.
    const later = JSON.parse((await w.status(['--json'])).stdout) as FleetStatusJson;
    expect(later.daemons.map((d) => d.state).sort()).toEqual(['ok', 'silent', 'stopped']);
    const redis = openFleetRedis({ url: new Secret(server.url) });
    redis.on('error', () => undefined);
    try {
      await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
      const ttl = await redis.pttl(`jupbot:fleet:t:daemon:paper-${b.daemon.engine.wallet}`);
      expect(ttl).toBeGreaterThan(23 * 3600_000);
      expect(ttl).toBeLessThanOrEqual(24 * 3600_000);
    } finally {
      redis.disconnect();
    }
  }, 240_000);

  it('Redis gone: the daemon trades on with no roster warning per beat, and its entry is back once Redis is', async () => {
    const w = await rosterWorld('outage', server.url, [{ strategies: { 'tp.yaml': VAULT_TP } }]);
    const [m] = w.members as [RosterMember];
    await w.drive(1 * MIN);
    expect(await m.roster().beat()).toBe(true);
    let failed = 0;
    m.roster().events.on('beat', (b) => {
      if (!b.ok) failed += 1;
    });
    await server.kill();
    const ticks = m.daemon.engine.trading.ticks.status().ticks;
    const warnings = (): string[] =>
      m.out.text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { level: string; msg: string })
        .filter((l) => l.level !== 'debug' && l.level !== 'info' && l.level !== 'trace')
        .map((l) => l.msg);
    const warnedBefore = warnings().length;
    await w.drive(2 * MIN);
    // 24 beats in two minutes, every one skipped quietly; the decide loop ran on.
    expect(failed).toBeGreaterThanOrEqual(24);
    expect(m.daemon.engine.trading.ticks.status().ticks).toBeGreaterThan(ticks + 5);
    // The roster adds no warning per beat (the shared quota says once that Redis is gone, tested with it).
    expect(
      warnings()
        .slice(warnedBefore)
        .filter((msg) => !msg.startsWith('shared quota lost: ')),
    ).toEqual([]);
    expect(m.out.text).toContain('fleet roster: heartbeat skipped');
    const down = await w.status();
    expect(down.code).toBe(7);
    expect(down.stderr).toMatch(new RegExp(`^cannot reach the fleet's Redis at redis://127\\.0\\.0\\.1:${server.port}/0 \\(ECONNREFUSED\\): `));

    // An empty Redis again: the publisher writes the entry as soon as its client is ready, without waiting for the clock.
    const back = m.roster().events.next('beat', (b) => b.ok);
    await server.restart();
    await back;
    const up = await w.status(['--json']);
    expect(up.code).toBe(0);
    expect((JSON.parse(up.stdout) as FleetStatusJson).daemons.map((d) => [d.wallet, d.state])).toEqual([[m.daemon.engine.wallet, 'ok']]);
  }, 120_000);

  it('keeps no secret in Redis: not the API key, not the wallet key', async () => {
    const apiKey = 'jup-test-api-key-0123456789abcdef';
    const w = await rosterWorld('secrets', server.url, [{ strategies: { 'tp.yaml': VAULT_TP } }], { JUPITER_API_KEY: apiKey });
    const [m] = w.members as [RosterMember];
    await w.drive(1 * MIN);
    expect(await m.roster().beat()).toBe(true);
    const keyFile = readFileSync(join(m.config.data_dir, 'paper-wallet.json'), 'utf8').trim();
    const secretBytes = JSON.parse(keyFile) as number[];
    const secrets = [
      apiKey,
      keyFile,
      bs58.encode(Uint8Array.from(secretBytes)),
      Buffer.from(secretBytes).toString('hex'),
      Buffer.from(secretBytes).toString('base64'),
    ];
    const redis = openFleetRedis({ url: new Secret(server.url) });
    redis.on('error', () => undefined);
    try {
      await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
      expect((await redis.keys('jupbot:fleet:secrets:*')).sort()).toEqual([
        `jupbot:fleet:secrets:daemon:paper-${m.daemon.engine.wallet}`,
        'jupbot:fleet:secrets:roster',
      ]);
      // Every key of every test so far, stopped daemons' entries included.
      const keys = await redis.keys('*');
      const values: string[] = [...keys];
      for (const key of keys) {
        if ((await redis.type(key)) === 'hash') values.push(...Object.entries(await redis.hgetall(key)).flat());
        else values.push(...(await redis.zrange(key, 0, -1)));
      }
      const all = values.join('\n');
      expect(all).toContain(m.daemon.engine.wallet);
      for (const secret of secrets) expect(all).not.toContain(secret);
      // And what the roster holds reads back as this daemon's entry.
      expect((await readRoster(redis, 'secrets')).entries.map((e) => e.wallet)).toEqual([m.daemon.engine.wallet]);
    } finally {
      redis.disconnect();
    }
  }, 120_000);
});
