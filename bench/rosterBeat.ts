/**
 * What the fleet roster's heartbeat costs the daemon (not part of `npm test`): a database with a
 * history of fills, the roster publisher writing to a real redis-server (Debian's, started on a free
 * port), its figures read through the same 10 s reuse `/status` has. Prints:
 *
 * - the event-loop time of `/status`'s database reading, against the roster's figures read afresh
 *   (only once the audit log's head or the UTC day moved) and an entry built from the kept ones;
 * - a beat's round trip to Redis (MULTI of five commands), p50, p99, max;
 * - with Redis killed: how long a skipped beat takes (it must not wait).
 *
 *   npx tsx bench/rosterBeat.ts [fills in the history, default 20000] [beats, default 500]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { statusReading } from '../src/audit/statusFigures.js';
import { ManualClock } from '../src/clock.js';
import { startRosterPublisher } from '../src/fleet/rosterPublisher.js';
import { rosterSources } from '../src/fleet/rosterSources.js';
import { createLogger } from '../src/ops/log.js';
import { Redactor } from '../src/ops/redact.js';
import { Secret } from '../src/secret.js';
import { SOL_MINT, USDC_MINT } from '../src/solana/programIds.js';
import { AuditLog } from '../src/store/audit.js';
import { recordFill } from '../src/store/fills.js';
import { openStore } from '../src/store/migrate.js';
import { startRedis } from '../test/support/redisServer.js';

const pct = (sorted: readonly number[], p: number): string => (sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0).toFixed(2);
const summary = (values: number[]): string => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${pct(sorted, 50)} ms, p99 ${pct(sorted, 99)} ms, max ${(sorted.at(-1) ?? 0).toFixed(2)} ms (n=${sorted.length})`;
};

async function main(fills: number, beats: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-bench-roster-'));
  const server = await startRedis();
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 12));
  try {
    const { db } = openStore(join(dir, 'bench.sqlite'), { clock, synchronous: 'NORMAL' });
    const audit = new AuditLog(db, clock);
    db.transaction(() => {
      for (let i = 0; i < fills; i++) {
        const buy = Math.floor(i / 10) % 2 === 0;
        const sol = BigInt(100_000_000 + (i % 7) * 1_000_000);
        const usdc = (sol * BigInt(150 + (i % 40))) / 1000n;
        const at = clock.now() - (fills - i) * 60_000;
        const [inMint, inAmount, inDecimals, outMint, outAmount, outDecimals] = buy
          ? [USDC_MINT, usdc, 6, SOL_MINT, sol, 9]
          : [SOL_MINT, sol, 9, USDC_MINT, usdc, 6];
        recordFill(
          db,
          audit,
          { signature: `seed${i}`, idx: 0, source: 'swap', inMint, inAmount, inDecimals, outMint, outAmount, outDecimals, at },
          { intentId: null, strategy: `seed-${i % 10}` },
          at,
        );
      }
    })();
    let head = 0;
    const sources = rosterSources({
      db,
      clock,
      auditHead: () => ({ id: head }),
      readiness: () => ({ ready: true, checks: [] }),
      control: () => ({ halted: null, paused: [] }),
      redactor: new Redactor(),
    });
    const time = (f: () => unknown): number => {
      const t0 = performance.now();
      f();
      return performance.now() - t0;
    };
    const status: number[] = [];
    const fresh: number[] = [];
    const kept: number[] = [];
    for (let i = 0; i < 20; i++) {
      await clock.advance(10_000);
      status.push(time(() => statusReading(db, clock.now())));
      head += 1;
      fresh.push(time(() => sources.figures()));
      kept.push(time(() => (sources.figures(), sources.health(), sources.control())));
    }
    const publisher = startRosterPublisher({
      redis: new Secret(server.url),
      fleet: 'bench',
      heartbeatMs: 15_000,
      clock,
      log: createLogger({ level: 'warn' }),
      identity: {
        wallet: 'BenchWa11et1111111111111111111111111111111',
        mode: 'paper',
        version: 'bench',
        host: 'bench',
        pid: process.pid,
        opsUrl: 'http://127.0.0.1:0',
        startedAt: clock.now(),
      },
      sources,
    });
    await publisher.events.next('beat', (b) => b.ok);
    const trips: number[] = [];
    for (let i = 0; i < beats; i++) {
      const t0 = performance.now();
      if (!(await publisher.beat())) throw new Error('a beat failed with Redis up');
      trips.push(performance.now() - t0);
    }
    await server.kill();
    // Real time for the client to notice the closed connection (a bench, not a test: it may sleep).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const skipped: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      if (await publisher.beat()) throw new Error('a beat succeeded with Redis gone');
      skipped.push(performance.now() - t0);
    }
    await publisher.stop();
    db.close();
    process.stdout.write(
      [
        `history: ${fills} fills`,
        `/status's database reading (what /status pays when asked, at most once per 10 s): ${summary(status)}`,
        `roster figures read afresh (after an audit row or at midnight UTC): ${summary(fresh)}`,
        `entry built from the kept figures (every other beat): ${summary(kept)}`,
        `beat round trip to Redis: ${summary(trips)}`,
        `beat with Redis killed (skipped): ${summary(skipped)}`,
        '',
      ].join('\n'),
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main(Number(process.argv[2] ?? 20_000), Number(process.argv[3] ?? 500));
