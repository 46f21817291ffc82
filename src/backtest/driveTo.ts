import type { SteppingClock } from './steppingClock.js';

/**
 * Moves the clock to wall time `until`, one due sleeper at a time, letting the daemon go idle after
 * each: what happens then depends on the seeds and the clock only, never on how fast the machine is.
 * `net` is what goes idle: one in-process network, or several daemons' together.
 */
export async function driveTo(clock: SteppingClock, net: { settle(): Promise<void> }, until: number): Promise<void> {
  const target = clock.monotonic() + (until - clock.now());
  for (;;) {
    await net.settle();
    const next = clock.nextWake();
    if (next === undefined || next > target) break;
    await clock.advance(next - clock.monotonic());
  }
  await clock.advance(Math.max(0, target - clock.monotonic()));
  await net.settle();
}
