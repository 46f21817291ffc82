/**
 * A paper daemon's ops server under many requests: what they cost the daemon (its /status document
 * and /metrics scrape, counted), that the decide loop still ticks while they are answered (an event
 * awaited, no time measured), and that a connection beyond the limit is counted on /metrics.
 */
import { Agent, request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start, type Daemon } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { OPS_LIMITS } from '../../../src/ops/opsServer.js';
import { MemoryStream } from '../../support/memoryStream.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function paperDaemon(label: string): Promise<{ daemon: Daemon; clock: ManualClock }> {
  const dir = mkdtempSync(join(tmpdir(), `jupbot-${label}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'strategies'));
  const config = parseConfigText(
    `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: ${label} }\n`,
    join(dir, 'c.yaml'),
    {},
    dir,
  );
  const clock = new ManualClock(Date.UTC(2026, 10, 24, 12));
  const daemon = await start(config, { clock, log: createLogger({ destination: new MemoryStream() }) });
  cleanups.push(() => daemon.stop('test over'));
  return { daemon, clock };
}

/** `count` GETs over `agent`, spread over `/`, `/status` and `/metrics`: resolves with each one's status. */
function flood(url: string, agent: Agent, count: number): Promise<number[]> {
  const routes = ['/', '/status', '/metrics'];
  return Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise<number>((resolve, reject) => {
          const req = request(`${url}${routes[i % 3] as string}`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end();
        }),
    ),
  );
}

describe('a paper daemon under ops requests', () => {
  it('computes /status and /metrics once for 300 requests, and its decide loop ticks while a flood is answered', async () => {
    const { daemon, clock } = await paperDaemon('ops-load');
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    cleanups.push(() => agent.destroy());
    const status = vi.spyOn(daemon.engine, 'status');
    const scrape = vi.spyOn(daemon.metrics, 'scrape');

    const first = await flood(daemon.opsUrl, agent, 300);
    expect(first).toEqual(Array.from({ length: 300 }, () => 200));
    expect([status.mock.calls.length, scrape.mock.calls.length]).toEqual([1, 1]);

    const { ticks } = daemon.engine.trading;
    if (ticks.status().ticks === 0) await ticks.events.next('tick');
    const last = ticks.status().lastTickAt as number;
    const next = ticks.events.next('tick');
    const second = flood(daemon.opsUrl, agent, 300);
    // No strategy, so no feed publishes a read to wake it: the loop's own clock runs the next tick,
    // 1.5 polls (of 10 s) after the last one.
    await clock.advance(15_000);
    expect((await next).at).toBe(last + 15_000);
    expect(await second).toEqual(Array.from({ length: 300 }, () => 200));
  });

  it(`closes connection ${OPS_LIMITS.maxConnections + 1} unanswered and counts it in jupbot_ops_refused_total`, async () => {
    const { daemon } = await paperDaemon('ops-limit');
    const { hostname, port } = new URL(daemon.opsUrl);
    const open = (): Promise<{ socket: Socket; text: string }> =>
      new Promise((resolve) => {
        const socket = connect(Number(port), hostname, () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
        cleanups.push(() => void socket.destroy());
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('{"status":"ok"}')) resolve({ socket, text });
        });
        socket.on('error', () => undefined);
        socket.on('close', () => resolve({ socket, text }));
      });
    const held = await Promise.all(Array.from({ length: OPS_LIMITS.maxConnections }, open));
    expect(held.filter((h) => h.text.startsWith('HTTP/1.1 200 OK'))).toHaveLength(OPS_LIMITS.maxConnections);
    expect((await open()).text).toBe('');
    expect(await daemon.metrics.scrape()).toContain('jupbot_ops_refused_total{reason="connections"} 1\n');
  });
});
