/**
 * A live start whose ops address another process holds ends with 78 before it asks anything of the
 * network and before it creates its database: the port is bound right after the locks.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveWorkspace } from './liveWorkspace.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function holdPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('a start on an ops address in use', () => {
  it('exits 78 naming the address, with no request sent and no database written', async () => {
    const port = await holdPort();
    const w = liveWorkspace({ listen: `127.0.0.1:${port}` });
    // Past the preflight gate, so that only the port can stop it.
    const run = await w.run(['run', '--config', 'config/live.yaml', '--skip-preflight']);
    expect(run.code).toBe(78);
    expect(run.stderr).toBe(
      `jupbot: the ops address 127.0.0.1:${port} (http.listen) is in use: another jupbot may be running with this config (jupbot status asks it), or another program holds the port; stop it, or set another http.listen. Nothing was called or written\n`,
    );
    expect(w.requests).toEqual([]);
    expect(existsSync(join(w.dataDir, 'jupbot-live.sqlite'))).toBe(false);
  });

  it('is a failed line of live check, which still records its verdict', async () => {
    const port = await holdPort();
    const w = liveWorkspace({ listen: `127.0.0.1:${port}` });
    const check = await w.run(['live', 'check', '--config', 'config/live.yaml']);
    expect(check.code).toBe(79);
    expect(check.stdout).toContain(`FAILED  ops port: OPS_PORT_IN_USE: the ops address 127.0.0.1:${port} (http.listen) is in use`);
    expect(check.stderr).toBe(
      `jupbot: preflight failed (1 check), recorded in ${join(w.dataDir, 'jupbot-live.sqlite')}: fix what the FAILED lines name and run it again\n`,
    );
    // Its failure is what the next start is refused for.
    await new Promise((resolve) => servers.splice(0)[0]?.close(resolve));
    const run = await w.run(['run', '--config', 'config/live.yaml']);
    expect(run.code).toBe(79);
    expect(run.stderr).toMatch(
      /^jupbot: the latest preflight, at 2026-11-02T08:00:00\.000Z, failed \(ops port\): run `jupbot live check --config config\/live\.yaml`/,
    );
  });
});
