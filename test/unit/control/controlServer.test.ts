/**
 * The control socket's protocol on its own: one answer line per request line, a line that is not a
 * request answered with why (never acted on), a stale socket file from a dead daemon replaced, and
 * the file gone after the close.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { askDaemon } from '../../../src/control/controlClient.js';
import { controlSocketPath, type ControlRequest } from '../../../src/control/controlProtocol.js';
import { startControlServer } from '../../../src/control/controlServer.js';
import { createLogger } from '../../../src/ops/log.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { tempDir } from '../store/helpers.js';

/** Writes `text` and collects the answer lines until `lines` have come. */
function exchange(path: string, text: string, lines: number): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(text));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const got = buffered.split('\n').filter((l) => l !== '');
      if (got.length >= lines) {
        socket.end();
        resolve(got.map((l) => JSON.parse(l) as unknown));
      }
    });
    socket.on('error', reject);
  });
}

describe('the control server', () => {
  it('answers each line, refuses what is not a request, replaces a stale socket file and removes its own at the close', async () => {
    const dir = tempDir();
    const path = controlSocketPath(dir);
    writeFileSync(path, 'left by a daemon that died');
    const seen: ControlRequest[] = [];
    const server = await startControlServer({
      dataDir: dir,
      log: createLogger({ destination: new MemoryStream() }),
      answer: (request) => {
        seen.push(request);
        return { ok: false, error: `seen ${request.command}` };
      },
    });
    try {
      const answers = await exchange(path, 'not json\n{"command":"halt"}\n{"command":"status"}\n', 3);
      expect(answers).toEqual([
        { ok: false, error: 'not a JSON line' },
        { ok: false, error: expect.stringMatching(/^not a control request: by: /) as unknown },
        { ok: false, error: 'seen status' },
      ]);
      expect(seen).toEqual([{ command: 'status' }]);
      expect(await askDaemon(path, { command: 'resume', by: 'alice' })).toEqual({ reached: true, answer: { ok: false, error: 'seen resume' } });
    } finally {
      await server.close();
    }
    expect(existsSync(path)).toBe(false);
    expect(await askDaemon(path, { command: 'status' })).toMatchObject({ reached: false, code: 'ENOENT' });
  });
});
