/**
 * Where the roster's figures come from: the functions `/status` computes its own with (today's
 * realized P&L, the open orders one per placement, the newest fill) and what `/readyz` answers, so
 * the roster never disagrees with the daemon's pages, and no second P&L exists.
 *
 * Today's P&L reads the whole history (first in, first out): 0.8 s of event loop at 20,000 fills
 * (bench/rosterBeat.ts). `/status` pays that when asked; a heartbeat must not pay it every few
 * seconds. The figures change only with a row of the audit log (every fill, order change and
 * intent appends one) or at midnight UTC, so they are read again only when its head or the day
 * has moved, and then at most once per REREAD_MS (the reuse `/status` has too): a quiet daemon
 * pays nothing, a busy one at most one reading per 10 s.
 */
import { todayTrades } from '../audit/statusFigures.js';
import { openOrderRows } from '../audit/openOrderRows.js';
import { tradeJson } from '../audit/trades.js';
import type { Clock } from '../clock.js';
import type { ControlStatus } from '../control/controlState.js';
import type { Readiness } from '../ops/opsServer.js';
import type { Redactor } from '../ops/redact.js';
import type { Db } from '../store/db.js';
import { DAY_MS } from '../strategies/snapshot.js';
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

/** The shortest time between two readings of the history, as `/status` reuses its own. */
export const REREAD_MS = 10_000;

export interface RosterSourceParts {
  /** The daemon's connection, read as `/status` reads it. */
  readonly db: Db;
  /** The daemon's clock: the day of "today" is the one `/status` says. */
  readonly clock: Clock;
  /** The audit chain's head: the figures are read again only once it moved. */
  readonly auditHead: () => { readonly id: number };
  /** What `/readyz` answers now. */
  readonly readiness: () => Readiness;
  readonly control: () => ControlStatus;
  readonly redactor: Redactor;
}

export function rosterSources(parts: RosterSourceParts): RosterSources {
  const { db, clock, redactor } = parts;
  let kept: { readonly key: string; readonly day: number; readonly at: number; readonly figures: ReturnType<RosterSources['figures']> } | undefined;
  return {
    figures() {
      const now = clock.now();
      const day = Math.floor(now / DAY_MS);
      const key = `${parts.auditHead().id}@${day}`;
      // A new day is read at once: yesterday's P&L must not be sent as today's.
      if (kept !== undefined && (kept.key === key || (kept.day === day && now - kept.at < REREAD_MS))) return kept.figures;
      const { trades, today } = todayTrades(db, now);
      const last = trades.at(-1);
      const figures = {
        today: { since: today.since, realizedUsd: today.realizedUsd, trades: today.trades },
        openOrders: openOrderRows(db, new Map(), now).length,
        lastFill: last === undefined ? null : fillSummary(tradeJson(last)),
      };
      kept = { key, day, at: now, figures };
      return figures;
    },
    health() {
      const { ready, checks } = parts.readiness();
      if (ready) return { ready: true, reason: null };
      const failing = checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? 'failed'}`);
      // The checks' details are error messages: scrubbed like a log line before they leave the host.
      return { ready: false, reason: redactor.scrubText(failing.join('; ')) };
    },
    control() {
      const { halted, paused } = parts.control();
      return {
        halted: halted === null ? null : { since: halted.since, reason: redactor.scrubText(halted.reason), by: halted.by },
        paused: paused.map((p) => p.strategy),
      };
    },
  };
}
