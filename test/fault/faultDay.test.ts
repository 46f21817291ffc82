/**
 * 429 storms, 5xx bursts, timeouts, malformed JSON, a revoked JWT and an RPC
 * outage over a simulated day. The daemon stays up, records each fault, and ends in the same final
 * state as a fault-free run with the same seed and the same price path.
 *
 * Both runs are the whole daemon (`start` from src/daemon.ts, live mode) against an in-process
 * simulator on one ManualClock; see support/faultDay.ts for the set-up and the price path,
 * support/faultPlan.ts for the faults, support/quietNetwork.ts for why the runs are reproducible.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FAULT_CLASSES, type FaultClass } from './support/faultPlan.js';
import { runDay, type DayResult } from './support/faultDay.js';
import { stateDiff } from './support/stateDiff.js';

/** Any seed gives a different fault plan, wallet and simulated world; FAULT_DAY_SEED replays another. */
const SEED = process.env['FAULT_DAY_SEED'] ?? 'fault-day';

/**
 * With this seed a 502 burst at 12:00 fails the quote of the 12:00 DCA run; reconciliation cancels
 * the planned intent as stale, and the tick loop plans its retry while the run is still on time
 * (executor/attempts.ts `runRetries`). Before that fix the faulted day bought five times instead of six.
 */
const finalStateTest = it;

let calm: DayResult;
let stormy: DayResult;

beforeAll(async () => {
  calm = await runDay({ seed: SEED, faults: false });
  stormy = await runDay({ seed: SEED, faults: true });
  const planned: Record<string, number> = {};
  for (const f of stormy.plan) planned[f.cls] = (planned[f.cls] ?? 0) + 1;
  process.stderr.write(
    `${[
      `fault day (seed ${SEED}): fault-free ${(calm.realMs / 1000).toFixed(1)} s, with faults ${(stormy.realMs / 1000).toFixed(1)} s of real time`,
      `windows by class: ${JSON.stringify(planned)}`,
      `exchanges hit by class: ${JSON.stringify(stormy.hits)}`,
      `Trigger logins: fault-free ${calm.recorded.logins}, with faults ${stormy.recorded.logins}`,
      `audit actions with faults: ${JSON.stringify(stormy.recorded.actions)}`,
      `health alerts with faults: ${stormy.recorded.alerts.filter((a) => a.startsWith('health:')).join(' | ')}`,
    ].join('\n')}\n`,
  );
}, 600_000);

/** The sum of the /metrics counters whose series name and labels match. */
function counter(result: DayResult, name: string, ...labels: RegExp[]): number {
  let sum = 0;
  for (const [series, value] of Object.entries(result.recorded.metrics)) {
    if (series.startsWith(`${name}{`) && labels.every((l) => l.test(series))) sum += value;
  }
  return sum;
}

describe('a simulated day of faults', () => {
  it('keeps the daemon up through the whole day, with and without faults', () => {
    expect(calm.stayedUp).toBe(true);
    expect(stormy.stayedUp).toBe(true);
  });

  it('injects every fault class, and each one hits the daemon', () => {
    for (const cls of FAULT_CLASSES)
      expect(
        stormy.plan.filter((f) => f.cls === cls),
        cls,
      ).toHaveLength(2);
    const missed = FAULT_CLASSES.filter((cls) => stormy.hits[cls] === 0);
    expect(missed).toEqual([]);
    expect(Object.values(calm.hits).every((n) => n === 0)).toBe(true);
  });

  it('records each fault class where the daemon records such things', () => {
    const recorded: Record<FaultClass, number> = {
      // jupbot_jupiter_429_total
      '429-storm': counter(stormy, 'jupiter_429_total'),
      // jupbot_jupiter_requests_total{status=5xx}
      '5xx-burst': counter(stormy, 'jupiter_requests_total', /status="5\d\d"/, /code="JUPITER_SERVER_ERROR"/),
      // jupbot_jupiter_requests_total{status="none",code="JUPITER_TIMEOUT"}
      timeout: counter(stormy, 'jupiter_requests_total', /status="none"/, /code="JUPITER_TIMEOUT"/),
      // jupbot_jupiter_requests_total{code="JUPITER_MALFORMED_RESPONSE"}
      'malformed-json': counter(stormy, 'jupiter_requests_total', /code="JUPITER_MALFORMED_RESPONSE"/),
      // jupbot_feed_failures_total{feed="balances",code="RPC_…"}
      'rpc-outage': counter(stormy, 'feed_failures_total', /feed="balances"/, /code="RPC_/),
      // jupbot_jupiter_requests_total{status="401",code="TRIGGER_UNAUTHORIZED"}
      'jwt-revoked': counter(stormy, 'jupiter_requests_total', /status="401"/, /code="TRIGGER_UNAUTHORIZED"/),
    };
    process.stderr.write(`recorded by class: ${JSON.stringify(recorded)}\n`);
    expect(FAULT_CLASSES.filter((cls) => recorded[cls] === 0)).toEqual([]);
    // The fault-free run records none of it.
    expect(counter(calm, 'jupiter_429_total') + counter(calm, 'feed_failures_total')).toBe(0);
    // Each revoked token is refused once: the 401 drops it, the session logs in again and retries.
    // (The fault-free run's second login is the scheduled refresh before 24 h; re-logins push it past the day.)
    const revoked = stormy.plan.filter((f) => f.cls === 'jwt-revoked').length;
    expect(stormy.hits['jwt-revoked']).toBe(revoked);
    expect(stormy.recorded.logins).toBeGreaterThanOrEqual(1 + revoked);
    // Outages longer than notify.down_after (5 min) are alerted, and their end too; the RPC outages last 10-20 min.
    expect(stormy.recorded.alerts.filter((a) => a.startsWith('health: jupbot: feed:balances is down')).length).toBe(2);
    expect(stormy.recorded.alerts.filter((a) => a.startsWith('health: jupbot: feed:balances recovered')).length).toBe(2);
    expect(calm.recorded.alerts.filter((a) => a.startsWith('health:'))).toEqual([]);
    // Reads are retried by the client, and the retries say why.
    for (const code of ['JUPITER_RATE_LIMITED', 'JUPITER_SERVER_ERROR', 'JUPITER_TIMEOUT', 'JUPITER_MALFORMED_RESPONSE']) {
      expect(counter(stormy, 'jupiter_retries_total', new RegExp(`code="${code}"`)), code).toBeGreaterThan(0);
    }
  });

  it('leaves both audit chains intact and the simulated ledger balanced', () => {
    expect(calm.auditOk).toBe(true);
    expect(stormy.auditOk).toBe(true);
    expect(stormy.auditChecked).toBeGreaterThan(10);
    expect(calm.invariants).toEqual({ supplyMismatches: [], negativeBalances: [] });
    expect(stormy.invariants).toEqual({ supplyMismatches: [], negativeBalances: [] });
  });

  it('trades in the fault-free run: every strategy kind and every executed intent kind', () => {
    const fills = calm.summary.fills as { source: string; strategy: string }[];
    const by = (strategy: string, source: string): number => fills.filter((f) => f.strategy === strategy && f.source === source).length;
    expect(by('jup-local-exits', 'swap')).toBe(2);
    expect(by('sol-take-profit', 'trigger')).toBe(2);
    expect(by('sol-dca-4h', 'swap')).toBe(6);
    expect(by('jup-dca-vault', 'dca')).toBe(10);
    expect(by('bonk-trailing-stop', 'trigger')).toBe(1);
    expect(by('lakers-exit', 'prediction')).toBe(1);
    const kinds = new Set((calm.summary.intents as { kind: string }[]).map((i) => i.kind));
    expect([...kinds].sort()).toEqual(['patch-vault-order', 'place-dca-vault-order', 'place-vault-order', 'renew-vault-order', 'sell-position', 'swap']);
  });

  finalStateTest('ends in the same final state as the fault-free run', () => {
    const diff = stateDiff(calm.summary, stormy.summary);
    if (diff.length > 0) {
      process.stderr.write(`final state differs:\n${diff.join('\n')}\nintents not confirmed with faults: ${JSON.stringify(stormy.recorded.failedIntents)}\n`);
    }
    expect(diff).toEqual([]);
  });
});
