import { describe, expect, it } from 'vitest';
import {
  MAX_RETRIES,
  nextAttempt,
  RETRY_AFTER_MS,
  retryDelay,
  retryId,
  runRetries,
  SLOW_RETRY_MS,
  withoutRetry,
} from '../../../../src/engine/executor/attempts.js';
import { triggerOf } from '../../../../src/engine/executor/attempts.js';
import type { IntentRow, PlanInput } from '../../../../src/store/journal.js';

const ID = 'tp/abcdef123456/stop_loss/g0';
const input: PlanInput = { id: ID, kind: 'swap', strategy: 'tp', rule: 'stop_loss', params: { amount: '1' }, evidence: { priceUsd: '90' }, reason: 'stop' };

function row(id: string, state: IntentRow['state'], errorCode: string | null = null, updatedAt = 0): IntentRow {
  return { id, state, errorCode, updatedAt } as IntentRow;
}

function journal(...rows: IntentRow[]): { get(id: string): IntentRow | undefined } {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { get: (id) => byId.get(id) };
}

describe('retries of failed decisions', () => {
  it('plans the original when nothing is journaled, and finds a live attempt again', () => {
    expect(nextAttempt(journal(), input, 0)).toEqual({ kind: 'plan', input, failures: 0 });
    expect(nextAttempt(journal(row(ID, 'sent')), input, 0)).toEqual({ kind: 'plan', input, failures: 0 });
    const live = nextAttempt(journal(row(ID, 'failed', 'LANDED_FAILED'), row(retryId(ID, 1), 'signed')), input, 0);
    expect(live).toMatchObject({ kind: 'plan', input: { id: `${ID}~r1` } });
  });

  it('waits RETRY_AFTER_MS after a retryable failure, then plans retry 1 with the failure as evidence', () => {
    const j = journal(row(ID, 'failed', 'LANDED_FAILED', 1_000));
    expect(nextAttempt(j, input, 1_000 + RETRY_AFTER_MS - 1)).toMatchObject({ kind: 'wait', at: 1_000 + RETRY_AFTER_MS });
    const next = nextAttempt(j, input, 1_000 + RETRY_AFTER_MS);
    expect(next).toEqual({
      kind: 'plan',
      input: {
        ...input,
        id: `${ID}~r1`,
        evidence: { priceUsd: '90', retry: 1, retryOf: ID, previousError: 'LANDED_FAILED' },
        reason: 'stop (retry 1 of 3 after LANDED_FAILED)',
      },
      failures: 1,
    });
  });

  it('backs off: one minute, two, four, then five at the slowest', () => {
    expect([1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([60_000, 120_000, 240_000, SLOW_RETRY_MS, SLOW_RETRY_MS, SLOW_RETRY_MS]);
    const rows = [row(ID, 'failed', 'GUARD_REFUSED', 0), row(retryId(ID, 1), 'failed', 'GUARD_REFUSED', 100_000)];
    expect(nextAttempt(journal(...rows), input, 100_000 + retryDelay(2) - 1)).toMatchObject({ kind: 'wait', at: 100_000 + 120_000, failures: 2 });
  });

  it('retries a guard refusal (a verdict on one transaction, not on the rule), and stops a rule that does not protect after MAX_RETRIES', () => {
    expect(nextAttempt(journal(row(ID, 'failed', 'GUARD_REFUSED')), input, 1e12)).toMatchObject({ kind: 'plan', input: { id: `${ID}~r1` } });
    expect(nextAttempt(journal(row(ID, 'failed', 'RISK_PRICE_IMPACT')), input, 1e12)).toMatchObject({ kind: 'final', failures: 1 });
    const rows = [row(ID, 'failed', 'LANDED_FAILED'), ...Array.from({ length: MAX_RETRIES }, (_, i) => row(retryId(ID, i + 1), 'failed', 'LANDED_FAILED'))];
    expect(nextAttempt(journal(...rows), input, 1e12)).toMatchObject({ kind: 'final', last: { id: `${ID}~r${MAX_RETRIES}` }, failures: MAX_RETRIES + 1 });
    // A stale cancel is a fresh decision if decide still asks for it.
    expect(nextAttempt(journal(row(ID, 'cancelled', 'STALE_INTENT')), input, 1e12)).toMatchObject({ kind: 'plan', input: { id: `${ID}~r1` } });
  });

  it('never disarms a protective rule: any failure, however many, is tried again at the slow pace', () => {
    const rows = [
      row(ID, 'failed', 'RISK_PRICE_IMPACT', 0),
      ...Array.from({ length: 9 }, (_, i) => row(retryId(ID, i + 1), 'failed', 'GUARD_REFUSED', (i + 1) * 1_000)),
    ];
    expect(nextAttempt(journal(...rows), input, 9_000 + SLOW_RETRY_MS - 1, undefined, true)).toMatchObject({
      kind: 'wait',
      at: 9_000 + SLOW_RETRY_MS,
      failures: 10,
    });
    expect(nextAttempt(journal(...rows), input, 9_000 + SLOW_RETRY_MS, undefined, true)).toMatchObject({
      kind: 'plan',
      input: { id: `${ID}~r10`, reason: 'stop (retry 10 after GUARD_REFUSED)' },
      failures: 10,
    });
    // A confirmed attempt between failures starts the count again.
    expect(nextAttempt(journal(row(ID, 'failed', 'LANDED_FAILED'), row(retryId(ID, 1), 'signed')), input, 0, undefined, true)).toMatchObject({ failures: 1 });
  });

  it('a retry fills its original slot: the trigger read back drops the suffix', () => {
    expect(withoutRetry(`${ID}~r2`)).toBe(ID);
    expect(triggerOf({ id: `${ID}~r2`, strategy: 'tp', rule: 'stop_loss' })).toBe('g0');
    expect(triggerOf({ id: 'd/abcdef123456/run/2026-06-01T07:00:00.000Z~r1', strategy: 'd', rule: 'run' })).toBe('2026-06-01T07:00:00.000Z');
  });

  it('a placement whose order ended unfilled is placed again as a retry, at once', () => {
    const placed = row(ID, 'confirmed', null, 5);
    const ended = (r: IntentRow): boolean => r.id === ID;
    expect(nextAttempt(journal(placed), input, 10)).toEqual({ kind: 'plan', input, failures: 0 });
    expect(nextAttempt(journal(placed), input, 6, ended)).toMatchObject({
      kind: 'plan',
      input: { id: `${ID}~r1`, evidence: { previousError: 'VAULT_ORDER_ENDED' } },
    });
  });

  it('a scheduled run that failed retryably is retried from its journal row while still on time', () => {
    const RUN = 'd/abcdef123456/run/2026-06-01T07:00:00.000Z';
    const at = Date.parse('2026-06-01T07:00:00.000Z');
    const instantOf = (r: IntentRow): number | null => (r.id.startsWith(RUN) ? at : null);
    const failed = { ...row(RUN, 'cancelled', 'STALE_INTENT', at + 120_000), rule: 'run', kind: 'swap', strategy: 'd', params: { amount: '25' } } as IntentRow;
    const j = journal(failed);
    expect(runRetries(j, [failed], 600_000, at + 121_000, instantOf)).toEqual([]); // cooling down
    expect(runRetries(j, [failed], 600_000, at + 180_000, instantOf)).toMatchObject([
      { id: `${RUN}~r1`, kind: 'swap', params: { amount: '25' }, evidence: { retry: 1, previousError: 'STALE_INTENT' } },
    ]);
    expect(runRetries(j, [failed], 600_000, at + 600_001, instantOf)).toEqual([]); // no longer on time
    // A guard refusal is retried too (the next answer may be clean); bad params are not.
    const refused = { ...failed, state: 'failed', errorCode: 'GUARD_REFUSED' } as IntentRow;
    expect(runRetries(journal(refused), [refused], 600_000, at + 180_000, instantOf)).toMatchObject([{ id: `${RUN}~r1` }]);
    const invalid = { ...failed, state: 'failed', errorCode: 'PARAMS_INVALID' } as IntentRow;
    expect(runRetries(journal(invalid), [invalid], 600_000, at + 180_000, instantOf)).toEqual([]);
  });
});
