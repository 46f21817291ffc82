/**
 * Two `/readyz` checks of the running engine that are not about a feed: the strategies whose
 * decision keeps failing, and the Trigger login.
 */
import type { TriggerSession } from '../jupiter/session.js';
import type { ReadinessCheck } from '../ops/opsServer.js';
import type { AreaGate } from './areas/areaGate.js';
import type { TickLoop } from './tick/tickLoop.js';

/** A strategy whose decision keeps failing (a stop that cannot sell) is not ready, and says which and why. */
export function strategiesReadiness(ticks: Pick<TickLoop, 'status'>): ReadinessCheck {
  return {
    name: 'strategies',
    probe: () => {
      const degraded = Object.entries(ticks.status().strategies).filter(([, h]) => h.degraded !== null);
      if (degraded.length === 0) return { ok: true };
      return {
        ok: false,
        detail: degraded
          .map(
            ([name, h]) =>
              `${name}: rule ${h.degraded?.rule ?? '?'} failed ${h.degraded?.failures ?? 0} times in a row (${h.degraded?.code ?? 'no code'})${h.degraded?.protective ? ', still trying' : ''}`,
          )
          .join('; '),
      };
    },
  };
}

/** The Trigger login fails the check only while it is attempted: a rehearsal holds no key, and an area nobody needs (or that is off) is not logged in to. */
export function triggerLoginReadiness(session: Pick<TriggerSession, 'health'> | null, gate: Pick<AreaGate, 'feedPaused'>): ReadinessCheck {
  return {
    name: 'trigger-login',
    probe: () => {
      if (session === null) return { ok: true, detail: 'not attempted: a rehearsal holds no key to log in with' };
      const paused = gate.feedPaused('trigger');
      if (paused !== null) return { ok: true, detail: `not attempted: ${paused}` };
      const health = session.health();
      return health.consecutiveFailures === 0
        ? { ok: true }
        : { ok: false, detail: `${health.consecutiveFailures} failed login(s): ${health.lastError?.message ?? 'unknown'}` };
    },
  };
}
