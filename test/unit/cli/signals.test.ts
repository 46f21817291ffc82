import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { FORCED_EXIT_CODE, shutdownOnSignals } from '../../../src/cli/signals.js';

class FakeProcess extends EventEmitter {
  readonly exits: number[] = [];
  readonly written: string[] = [];
  readonly stderr = { write: (text: string) => this.written.push(text) };
  exit(code: number): never {
    this.exits.push(code);
    // A real exit never returns; the fake throws so the handler's code after it cannot run.
    throw new Error(`exit ${code}`);
  }
}

describe('shutdown signals', () => {
  it('the first SIGTERM asks for a clean stop, with the reason', () => {
    const proc = new FakeProcess();
    const signal = shutdownOnSignals(proc);
    expect(signal.aborted).toBe(false);
    proc.emit('SIGTERM', 'SIGTERM');
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('received SIGTERM');
    expect(proc.exits).toEqual([]);
  });

  it('a second signal while stopping forces the exit with 130', () => {
    const proc = new FakeProcess();
    shutdownOnSignals(proc);
    proc.emit('SIGINT', 'SIGINT');
    expect(() => proc.emit('SIGTERM', 'SIGTERM')).toThrow('exit 130');
    expect(proc.exits).toEqual([FORCED_EXIT_CODE]);
    expect(proc.written).toEqual(['jupbot: second SIGTERM, exiting now\n']);
  });
});
