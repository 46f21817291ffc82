import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { simCommand } from '../../src/cli/sim.js';

describe('jupbot sim', () => {
  it('prints its base URL, serves the API and stops when asked', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const stop = new AbortController();
    const ctx = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), env: {}, cwd: process.cwd(), clock: new ManualClock() };
    const command = simCommand(ctx, stop.signal).exitOverride();
    const running = command.parseAsync(['--port', '0', '--seed', 'cli', '--speed', '10'], { from: 'user' });
    while (out.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const url = out[0]?.trim() ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const state = (await (await fetch(`${url}/__sim/state`)).json()) as { seed: string };
    expect(state.seed).toBe('cli');
    expect((await fetch(`${url}/ultra/v1/search?query=SOL`)).status).toBe(200);
    stop.abort();
    await running;
    await expect(fetch(`${url}/__sim/state`)).rejects.toThrow();
    expect(err.join('')).toMatch(/speed 10x/);
  });

  it('refuses a bad speed or port', async () => {
    const ctx = { stdout: () => undefined, stderr: () => undefined, env: {}, cwd: process.cwd(), clock: new ManualClock() };
    await expect(
      simCommand(ctx)
        .exitOverride()
        .configureOutput({ writeErr: () => undefined })
        .parseAsync(['--speed', '0'], { from: 'user' }),
    ).rejects.toThrow(/speed/);
    await expect(
      simCommand(ctx)
        .exitOverride()
        .configureOutput({ writeErr: () => undefined })
        .parseAsync(['--port', '70000'], { from: 'user' }),
    ).rejects.toThrow(/port/);
  });
});
