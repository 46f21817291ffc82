import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardStdout } from '../../../src/cli/closedStdout.js';
import { ExitCode } from '../../../src/exitCodes.js';

/** A stdout whose reader has gone: every write fails with EPIPE, as a pipe into `head` does once head exits. */
function brokenPipe(): { stream: Writable; written: string[] } {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    },
  });
  return { stream, written };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a closed stdout', () => {
  it('ends the command quietly: no crash, later output dropped, the stop asked for, exit 0', async () => {
    const { stream, written } = brokenPipe();
    const stdout = guardStdout(stream);
    stdout.write('strategy  realized\n');
    // The EPIPE arrives as an `error` event on a later turn; unheard, it would crash the process.
    await nextTurn();
    expect(stdout.closed.aborted).toBe(true);
    stdout.write('more rows\n');
    await nextTurn();
    expect(written).toEqual(['strategy  realized\n']);
    expect(stdout.exitCode(ExitCode.Internal)).toBe(ExitCode.Ok);
  });

  it('keeps the exit code while the reader is there', () => {
    const stdout = guardStdout(new EventEmitter() as EventEmitter & { write: () => boolean });
    expect(stdout.closed.aborted).toBe(false);
    expect(stdout.exitCode(ExitCode.InvalidInput)).toBe(ExitCode.InvalidInput);
  });

  it('still fails loudly on any other write error', () => {
    const emitter = Object.assign(new EventEmitter(), { write: () => true });
    guardStdout(emitter);
    expect(() => emitter.emit('error', Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' }))).toThrow('ENOSPC');
  });
});
