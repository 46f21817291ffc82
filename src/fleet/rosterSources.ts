/**
 * Where the roster's figures come from: the very reading `/status` serves (today's P&L, the orders,
 * the last fills, reused for 10 s) and what `/readyz` answers, so the roster can never disagree with
 * the daemon's own pages — and no second P&L is computed.
 */
import type { ControlStatus } from '../control/controlState.js';
import type { DaemonOpsServer } from '../ops/daemonOpsServer.js';
import type { Redactor } from '../ops/redact.js';
import type { RosterEntry } from './rosterEntry.js';
import type { RosterSources } from './rosterPublisher.js';

interface FillLeg {
  readonly amount: string;
  readonly symbol: string;
}

/** `sell 0.5 SOL for 71.2 USDC`: a `/status` fill (audit/trades.ts `tradeJson`) in a few words. */
export function fillSummary(fill: Readonly<Record<string, unknown>>): RosterEntry['lastFill'] {
  const token = fill['token'] as FillLeg | undefined;
  const counter = fill['counter'] as FillLeg | undefined;
  const side = typeof fill['side'] === 'string' ? fill['side'] : '?';
  return {
    at: typeof fill['at'] === 'string' ? fill['at'] : '',
    strategy: typeof fill['strategy'] === 'string' ? fill['strategy'] : null,
    summary: `${side} ${token?.amount ?? '?'} ${token?.symbol ?? '?'} for ${counter?.amount ?? '?'} ${counter?.symbol ?? '?'}`,
  };
}

export function rosterSources(ops: Pick<DaemonOpsServer, 'reading' | 'readiness'>, control: () => ControlStatus, redactor: Redactor): RosterSources {
  return {
    figures() {
      const { figures, orderRows } = ops.reading();
      const last = figures.lastFills[0];
      return {
        today: { since: figures.today.since, realizedUsd: figures.today.realizedUsd, trades: figures.today.trades },
        openOrders: orderRows.length,
        lastFill: last === undefined ? null : fillSummary(last),
      };
    },
    health() {
      const { ready, checks } = ops.readiness();
      if (ready) return { ready: true, reason: null };
      const failing = checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? 'failed'}`);
      // The checks' details are error messages: scrubbed like a log line before they leave the host.
      return { ready: false, reason: redactor.scrubText(failing.join('; ')) };
    },
    control() {
      const { halted, paused } = control();
      return {
        halted: halted === null ? null : { since: halted.since, reason: redactor.scrubText(halted.reason), by: halted.by },
        paused: paused.map((p) => p.strategy),
      };
    },
  };
}
