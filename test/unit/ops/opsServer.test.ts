import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { startOpsServer, type OpsServer } from '../../../src/ops/opsServer.js';

let server: OpsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ops server', () => {
  it('answers /healthz while a readiness check fails, and /readyz names the failing check', async () => {
    let dbWritable = false;
    server = await startOpsServer({
      listen: { host: '127.0.0.1', port: 0 },
      clock: new ManualClock(),
      checks: [
        { name: 'database', probe: () => (dbWritable ? { ok: true } : { ok: false, detail: 'database is locked' }) },
        { name: 'always', probe: () => ({ ok: true }) },
      ],
      documents: { '/status': () => ({ mode: 'paper', amount: 10n ** 20n }) },
    });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const notReady = await fetch(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({
      status: 'not ready',
      checks: [
        { name: 'database', ok: false, detail: 'database is locked' },
        { name: 'always', ok: true },
      ],
    });

    dbWritable = true;
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/status`)).json()).toEqual({ mode: 'paper', amount: '100000000000000000000' });
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`, { method: 'POST' })).status).toBe(405);
  });

  it('reports a probe that throws as not ready instead of failing the request', async () => {
    server = await startOpsServer({
      listen: { host: '127.0.0.1', port: 0 },
      clock: new ManualClock(),
      checks: [
        {
          name: 'feed',
          probe: () => {
            throw new Error('feed state unavailable');
          },
        },
      ],
    });
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ checks: [{ name: 'feed', ok: false, detail: 'feed state unavailable' }] });
  });
});
