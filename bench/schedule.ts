/**
 * nextInstant's cost: `npx tsx bench/schedule.ts`. Not part of `npm test`.
 * Cold: every question is new (each round walks a different year, both daylight-saving changes
 * included), so the figure is the zone arithmetic itself. Warm: the question a tick asks again
 * and again until a run happens, answered from the memo.
 */
import { dueInstants, nextInstant } from '../src/strategies/schedule.js';

const ROUNDS = 20;
const SCHEDULES: readonly (readonly [string, string])[] = [
  ['0 9 * * *', 'Europe/Berlin'],
  ['30 1 * * *', 'America/New_York'],
  ['*/30 2 * * *', 'Europe/Berlin'],
  ['0 */2 * * *', 'America/New_York'],
  ['*/30 * * * *', 'Europe/Berlin'],
  ['0 * * * *', 'UTC'],
];

console.log(`nextInstant: ${SCHEDULES.length} schedules, a year each, ${ROUNDS} rounds (years ${2030}–${2030 + ROUNDS - 1})`);
for (const [cron, zone] of SCHEDULES) {
  let best = Number.POSITIVE_INFINITY;
  let fires = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const from = Date.UTC(2030 + r, 0, 1);
    const start = performance.now();
    const due = dueInstants(cron, zone, from, Date.UTC(2031 + r, 0, 1), 100_000);
    const us = ((performance.now() - start) * 1000) / Math.max(1, due.length);
    best = Math.min(best, us);
    fires = due.length;
  }
  const after = Date.UTC(2026, 5, 1, 12, 0, 30);
  nextInstant(cron, zone, after);
  const WARM = 100_000;
  const start = performance.now();
  for (let i = 0; i < WARM; i++) nextInstant(cron, zone, after);
  const warm = ((performance.now() - start) * 1000) / WARM;
  console.log(
    `  ${JSON.stringify(cron).padEnd(16)} ${zone.padEnd(17)} ${String(fires).padStart(6)} runs/yr  cold ${best.toFixed(2)} µs/call (best round)  warm ${warm.toFixed(3)} µs/call`,
  );
}
