/**
 * The operator's controls as the engine runs them: the persisted state (controlState.ts), the
 * question the decide loop asks of each strategy (halted or paused: it does not decide, and its
 * rules say why), the intents it takes before any strategy decides (controlIntents.ts), and the
 * answers of the control channel (controlServer.ts). The composition root wires it with a few lines.
 */
import { basename } from 'node:path';
import type { Clock } from '../clock.js';
import type { MarketMap } from '../engine/feeds/markets.js';
import type { Position } from '../jupiter/schemas/prediction.js';
import type { Logger } from '../ops/log.js';
import type { Notification } from '../ops/notification.js';
import { hasAction } from '../store/actionQueries.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { StrategyVersions } from '../store/strategyVersions.js';
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import { applyControl } from './applyControl.js';
import { controlIntents, type ControlIntent, OPERATOR } from './controlIntents.js';
import { cancellableOrders, liveLeft, positionsSelling } from './controlOrders.js';
import type { ControlAnswer, ControlLeft, ControlRequest } from './controlProtocol.js';
import { controlPausedReason, ControlState, type ControlStatus } from './controlState.js';
import { saleCounts, type SaleInputs } from './positionSales.js';

export interface EngineControlOptions {
  readonly db: Db;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly log: Logger;
  /** The strategies running now, and the files whose current text is rejected (the watcher's). */
  readonly strategies: () => ReadonlyMap<string, LoadedStrategy>;
  readonly rejectedFiles: () => readonly string[];
  /** How many strategy files the last scan found, valid or not (none: nothing counts as removed). */
  readonly filesSeen: () => number;
  /** The wallet's prediction positions as last read. */
  readonly positions: () => readonly Position[] | undefined;
  /** The prediction markets as last read (those of the positions held among them). @default none read */
  readonly markets?: (() => MarketMap | undefined) | undefined;
  /** A change the operator made is told to the webhooks too: a halt of an unattended daemon is news. @default not told */
  readonly notify?: ((notification: Notification) => void) | undefined;
  /** Clears every protection that tripped (an operator's `resume --protections`); returns their names. @default none configured */
  readonly clearProtections?: ((by: string) => readonly string[]) | undefined;
  /** Only the operator's intents are taken; no strategy decides (a one-shot run of the controls). @default false */
  readonly controlsOnly?: boolean | undefined;
}

export interface EngineControl {
  readonly state: ControlState;
  /** Why `strategy` must not decide now because of the operator, else null. */
  paused(strategy: LoadedStrategy): string | null;
  /** The intents to take now; a kept order is said once (log and `control.order-kept`). */
  intents(): readonly ControlIntent[];
  /** Whether the operator's controls need an API area nothing else may (selling positions needs `prediction`). */
  needs(area: string): boolean;
  /** What is left live for a halt to cancel or sell. */
  left(): ControlLeft;
  status(): ControlStatus;
  answer(request: ControlRequest): ControlAnswer;
}

export function createEngineControl(options: EngineControlOptions): EngineControl {
  const { db, audit, clock, log } = options;
  const state = new ControlState(db, audit, clock);
  const versions = new StrategyVersions(db);
  // Asked for every strategy at every tick: read once here, then kept with each change (only this
  // process writes it while it holds the data directory's lock).
  let current = state.status();
  state.events.on('changed', (status) => (current = status));
  // A start that finds itself halted or with paused strategies says so: otherwise it would look idle for no reason.
  if (current.halted !== null)
    log.warn({ control: current.halted }, `starting HALTED: ${controlPausedReason(current, '')}; jupbot resume lets the strategies decide again`);
  for (const p of current.paused)
    log.info(
      { strategy: p.strategy },
      `${p.strategy}: ${controlPausedReason({ halted: null, paused: [p] }, p.strategy)}; jupbot resume ${p.strategy} lets it decide again`,
    );

  const sales = (): SaleInputs => {
    const markets = options.markets?.();
    return { marketStatus: (id) => markets?.get(id)?.status, selling: positionsSelling(db, OPERATOR) };
  };

  const left = (): ControlLeft => {
    const positions = options.positions();
    const counts = positions === undefined ? undefined : saleCounts(positions, sales());
    return {
      ...liveLeft(db),
      positions: counts === undefined ? null : counts.sell + counts.unread,
      selling: counts?.selling ?? 0,
      claimable: counts?.claimable ?? 0,
      closed: counts?.closed ?? 0,
      sales: (db.prepare("SELECT count(*) AS n FROM intents WHERE strategy = ? AND state IN ('planned', 'signed', 'sent')").get(OPERATOR) as { n: number }).n,
    };
  };

  /** Said once while the strategies dir holds no file and orders of ours are left without a strategy. */
  let emptySaid = false;

  function intents(): readonly ControlIntent[] {
    const active = options.strategies();
    const orders = cancellableOrders(db);
    const filesSeen = options.filesSeen();
    const orphans = filesSeen === 0 ? orders.filter((o) => !active.has(o.strategy)).length : 0;
    if (orphans > 0 && !emptySaid)
      log.warn(
        { orders: orphans },
        `the strategies dir holds no strategy file: ${orphans} order(s) of ours are left working, not cancelled (on_remove applies to a file removed from a directory that still holds others; jupbot halt --cancel-orders cancels them all)`,
      );
    emptySaid = orphans > 0;
    const plan = controlIntents({
      halted: current.halted,
      orders,
      active,
      lastApplied: (strategy) => {
        const last = versions.latest(strategy);
        // By file name: the recorded path is shown relative to the directory the recording process
        // ran in, which need not be this one's (the strategies dir is flat).
        const rejected = options.rejectedFiles().map((file) => basename(file));
        return last === undefined ? undefined : { yaml: last.yaml, filePresent: rejected.includes(basename(last.sourceFile)) };
      },
      filesSeen,
      positions: current.halted?.closePositions ? options.positions() : undefined,
      sales: sales(),
    });
    for (const { order, why } of plan.kept) {
      if (hasAction(db, 'control.order-kept', order.intent_id)) continue;
      audit.append({ kind: 'control.order-kept', strategy: order.strategy, intentId: order.intent_id, data: { orderId: order.id, family: order.family, why } });
      log.warn({ strategy: order.strategy, orderId: order.id }, `${order.strategy}: ${order.family} order ${order.id} left working: ${why} (on_remove: keep)`);
    }
    return plan.intents;
  }

  return {
    state,
    paused(strategy) {
      if (options.controlsOnly) return 'a one-shot run of the operator controls: no strategy decides';
      return controlPausedReason(current, strategy.name);
    },
    intents,
    needs: (area) => area === 'prediction' && current.halted?.closePositions === true,
    left,
    status: () => current,
    answer(request) {
      const change =
        request.command === 'status' ? { changed: false, status: current } : applyControl(state, request, (by) => options.clearProtections?.(by) ?? []);
      if (change.changed && request.command !== 'status') {
        const line = controlLine(request);
        log.warn({ control: request }, line);
        options.notify?.({ type: 'control', action: request.command, detail: line });
      }
      return {
        ok: true,
        changed: change.changed,
        status: change.status,
        left: left(),
        strategies: [...options.strategies().keys()],
        ...(change.cleared === undefined ? {} : { cleared: change.cleared }),
      };
    },
  };
}

/** The log line of a change the operator asked for. */
function controlLine(request: ControlRequest): string {
  switch (request.command) {
    case 'halt':
      return `HALTED by ${request.by}: ${request.reason}${request.cancelOrders ? '; cancelling every order' : ''}${request.closePositions ? '; selling every position' : ''}`;
    case 'resume':
      return `resumed by ${request.by}: strategies decide again${request.protections === true ? '; tripped protections cleared' : ''}`;
    case 'pause':
      return `${request.strategy}: paused by ${request.by}: ${request.reason}`;
    case 'resume-strategy':
      return `${request.strategy}: resumed by ${request.by}`;
    case 'status':
      return 'control status';
  }
}
