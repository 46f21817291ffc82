/**
 * The command's end of the control channel (controlProtocol.ts): one request, one answer line.
 * Nothing listening (no socket file, or a file nobody accepts on) is told apart from a daemon that
 * accepted and did not answer in time.
 */
import { connect } from 'node:net';
import type { ControlAnswer, ControlRequest } from './controlProtocol.js';

export type Asked =
  | { readonly reached: true; readonly answer: ControlAnswer }
  /** Nobody listens: no daemon, or one that died and left its socket. `code`: the connect error's. */
  | { readonly reached: false; readonly code: string; readonly message: string };

/** Sends `request` on the socket at `path`; the answer, or why nobody took it. Rejects when a daemon took it and did not answer in `timeoutMs`. */
export function askDaemon(path: string, request: ControlRequest, timeoutMs = 10_000): Promise<Asked> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let connected = false;
    let buffered = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the daemon at ${path} accepted the request but did not answer within ${timeoutMs / 1000}s`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      socket.end();
      try {
        resolve({ reached: true, answer: JSON.parse(buffered.slice(0, newline)) as ControlAnswer });
      } catch {
        reject(new Error(`the daemon at ${path} answered something that is not JSON`));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!connected) resolve({ reached: false, code: error.code ?? 'ERROR', message: error.message });
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (connected && !buffered.includes('\n')) reject(new Error(`the daemon at ${path} closed the connection without answering`));
    });
  });
}
