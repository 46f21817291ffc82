/**
 * The daemon's end of the control channel (controlProtocol.ts): a unix socket in the data
 * directory, created with mode 0600 (the umask is narrowed around `listen`, so the file never
 * exists with wider bits, and it is chmod-ed again before the first connection is accepted).
 *
 * A socket file left by a daemon that died is removed first: the data directory's lock, which the
 * daemon holds before this runs, guarantees no live daemon is behind it.
 */
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { errorMessage } from '../errors.js';
import type { Logger } from '../ops/log.js';
import { type ControlAnswer, ControlRequest, controlSocketPath } from './controlProtocol.js';

/** Longest request line accepted: a request is a few hundred bytes. */
const MAX_LINE = 16_384;

export interface ControlServer {
  readonly path: string;
  close(): Promise<void>;
}

export async function startControlServer(options: {
  readonly dataDir: string;
  readonly log: Logger;
  readonly answer: (request: ControlRequest) => ControlAnswer;
}): Promise<ControlServer> {
  const path = controlSocketPath(options.dataDir);
  rmSync(path, { force: true });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_LINE && !buffered.includes('\n')) {
        socket.end(`${JSON.stringify({ ok: false, error: 'request too long' })}\n`);
        return;
      }
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() !== '') socket.write(`${JSON.stringify(answerLine(line, options))}\n`);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The socket file is made (bound) within listen(): the narrowed umask is back as soon as it returns.
    const previous = process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(previous);
    }
  });
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => {
        rmSync(path, { force: true });
        resolve();
      });
    });
  try {
    // Before the first connection is accepted (this runs before any I/O callback of the new server).
    chmodSync(path, 0o600);
  } catch (error) {
    // A socket whose mode cannot be made private is not served at all.
    await close();
    throw error;
  }
  return { path, close };
}

function answerLine(line: string, options: { readonly log: Logger; readonly answer: (request: ControlRequest) => ControlAnswer }): ControlAnswer {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, error: 'not a JSON line' };
  }
  const parsed = ControlRequest.safeParse(json);
  if (!parsed.success) return { ok: false, error: `not a control request: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  try {
    return options.answer(parsed.data);
  } catch (error) {
    options.log.error({ err: error, command: parsed.data.command }, `control request failed: ${errorMessage(error)}`);
    return { ok: false, error: errorMessage(error) };
  }
}

/**
 * The daemon's control channel, or null: a socket that cannot be made (a data_dir path too long for
 * a unix socket, say) does not stop the daemon from protecting what it holds. Said as an error, and
 * the halt commands then say the daemon does not answer.
 */
export async function startControlChannel(options: Parameters<typeof startControlServer>[0]): Promise<ControlServer | null> {
  try {
    return await startControlServer(options);
  } catch (error) {
    options.log.error(
      { err: error, dataDir: options.dataDir },
      `control channel not started: ${errorMessage(error)}; jupbot halt, pause and resume cannot reach this daemon`,
    );
    return null;
  }
}
