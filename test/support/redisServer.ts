/**
 * A real Redis for the fleet tests: Debian's `redis-server`, started on a free loopback port with no
 * persistence, killed and restarted on the same port by the tests that need an outage. Never a mock:
 * the shared quota's Lua scripts must run in the server they run in production.
 *
 * Without /usr/bin/redis-server the fleet tests are skipped and say so (`.ci/run` installs it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const redisPresent = existsSync(REDIS_SERVER);
if (!redisPresent) process.stderr.write(`fleet tests skipped: no redis-server at ${REDIS_SERVER} (apt-get install redis-server)\n`);

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>/0` */
  readonly url: string;
  /** SIGKILL: the server and everything it held are gone (no persistence). */
  kill(): Promise<void>;
  /** Starts a new, empty server on the same port (after {@link kill}). */
  restart(): Promise<void>;
  /** Stops the server for good and removes its directory. Idempotent. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'notice'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    running.add(child);
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.resume();
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (!out.includes('Ready to accept connections'))
        reject(new Error(`redis-server on port ${port} exited (${code ?? signal}) before it was ready:\n${out}`));
    });
  });
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** Starts a fresh redis-server; call `stop()` when done (an `afterAll`). */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'jb-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = await launch(port, dir);
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    async kill() {
      if (child) await exited(child, 'SIGKILL');
      child = null;
    },
    async restart() {
      if (child) throw new Error('restart() needs a killed server: call kill() first');
      child = await launch(port, dir);
    },
    async stop() {
      if (child) await exited(child, 'SIGTERM');
      child = null;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
