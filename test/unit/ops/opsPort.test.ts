/**
 * The ops socket bound ahead of the server (ops/opsPort.ts): it answers while the daemon starts,
 * then serves the routes it is given; a taken address is OPS_PORT_IN_USE, naming it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bindOpsPort, type BoundOpsPort } from '../../../src/ops/opsPort.js';
import { OPS_LIMITS } from '../../../src/ops/opsServer.js';
import { JupbotError } from '../../../src/errors.js';

const bound: BoundOpsPort[] = [];
afterEach(async () => {
  await Promise.all(bound.splice(0).map((p) => p.close()));
});

const get = async (url: string): Promise<[number, unknown]> => {
  const answer = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  return [answer.status, await answer.json()];
};

describe('the ops port bound ahead', () => {
  it('says the daemon is starting until it is served, then serves', async () => {
    const port = await bindOpsPort({ host: '127.0.0.1', port: 0 }, OPS_LIMITS);
    bound.push(port);
    expect(await get(`${port.url}/healthz`)).toEqual([200, { status: 'starting' }]);
    expect(await get(`${port.url}/readyz`)).toEqual([503, { status: 'starting', error: 'the daemon is starting' }]);
    port.serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"served":true}'));
    expect(await get(`${port.url}/readyz`)).toEqual([200, { served: true }]);
  });

  it('refuses an address in use with OPS_PORT_IN_USE, and closes once however often asked', async () => {
    const first = await bindOpsPort({ host: '127.0.0.1', port: 0 }, OPS_LIMITS);
    bound.push(first);
    const port = Number(new URL(first.url).port);
    const error = await bindOpsPort({ host: '127.0.0.1', port }, OPS_LIMITS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JupbotError);
    expect([(error as JupbotError).code, (error as JupbotError).details]).toEqual(['OPS_PORT_IN_USE', { listen: `127.0.0.1:${port}` }]);
    await Promise.all([first.close(), first.close()]);
    const again = await bindOpsPort({ host: '127.0.0.1', port }, OPS_LIMITS);
    bound.push(again);
    expect(again.url).toBe(first.url);
  });
});
