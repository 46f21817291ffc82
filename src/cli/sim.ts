import { Command, InvalidArgumentError } from 'commander';
import { ScaledClock } from '../scaledClock.js';
import type { CliContext } from './context.js';

const DEFAULT_PORT = 8787;

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError('expected a port number 0-65535 (0 picks a free port)');
  return n;
}

function parseSpeed(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 10_000) throw new InvalidArgumentError('expected a speed factor > 0 (at most 10000)');
  return n;
}

/** Resolves when `signal` aborts (the CLI's shutdown signal: SIGINT or SIGTERM). */
function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * `jupbot sim [--port N] [--seed S] [--speed X]`: runs the Jupiter + Solana RPC simulator alone on
 * 127.0.0.1 and prints its base URL (the first stdout line), until SIGINT or `signal` aborts.
 */
export function simCommand(ctx: CliContext, signal?: AbortSignal): Command {
  return new Command('sim')
    .description('run the embedded Jupiter and Solana RPC simulator alone, on 127.0.0.1')
    .option('--port <n>', `port to listen on (0 picks a free port)`, parsePort, DEFAULT_PORT)
    .option('--seed <s>', 'seed of the simulated world: the same seed and calls give the same answers', 'jupbot')
    .option('--speed <x>', 'simulated time runs this many times faster than real time', parseSpeed, 1)
    .allowExcessArguments(false)
    .action(async (options: { port: number; seed: string; speed: number }) => {
      const clock = options.speed === 1 ? ctx.clock : new ScaledClock(ctx.clock, options.speed);
      // Loaded here, not at the top: every other command (the daemon's `run` above all) runs without the simulator's code.
      const { createSimulator } = await import('../sim/simulator.js');
      const sim = createSimulator({ clock, seed: options.seed });
      const server = await sim.listen(options.port, '127.0.0.1', { catchUpEveryMs: 1000 });
      ctx.stdout(`${server.url}\n`);
      ctx.stderr(`jupbot sim: seed ${sim.seed}, speed ${options.speed}x; control surface at ${server.url}/__sim/state; Ctrl-C stops\n`);
      await untilStopped(signal);
      await server.close();
    });
}
