/**
 * The areas as the engine runs them: what the loaded strategies need (areaNeeds.ts), what the key
 * may use (areaAccess.ts, learnt from every answer of the one client), and the gate the feeds, the
 * decide loop and readiness ask (areaGate.ts). It also says in the log, at start and whenever it
 * changes, which areas are in use and which are not polled at all.
 */
import type { Clock } from '../../clock.js';
import { API_AREAS, type ApiArea, probeArea } from '../../jupiter/apiAreas.js';
import type { JupiterClient } from '../../jupiter/transport.js';
import type { Logger } from '../../ops/log.js';
import type { AuditLog } from '../../store/audit.js';
import type { Db } from '../../store/db.js';
import type { StrategyWatcher } from '../strategyWatcher.js';
import { vaultOrderViews } from '../tick/vaultOrderViews.js';
import { AreaAccess, type AreaStatus } from './areaAccess.js';
import { createAreaGate, type AreaGate } from './areaGate.js';
import { AreaNeeds } from './areaNeeds.js';

export interface EngineAreasOptions {
  readonly client: JupiterClient;
  readonly clock: Clock;
  readonly audit: AuditLog;
  readonly log: Logger;
  readonly db: Db;
  readonly wallet: string;
  readonly strategies: StrategyWatcher;
  /** An area something other than a strategy needs now (the operator's sale of every position needs prediction). @default none */
  readonly alsoNeeded?: ((area: ApiArea) => boolean) | undefined;
  /** @default AREA_RETRY_MS */
  readonly retryMs?: number | undefined;
}

export interface EngineAreas {
  readonly access: AreaAccess;
  readonly gate: AreaGate;
  status(): AreaStatus[];
  /** `changed` runs whenever what may poll or decide can have changed: an area turned off or on, a strategy was loaded or removed. */
  onChange(changed: () => void): void;
  /** Says which areas are in use, then asks off areas again on their schedule until `signal` aborts. */
  start(signal: AbortSignal): void;
  /** Settles once the retry loops have stopped. */
  done(): Promise<void>;
  /** Stops following the client and the strategies. */
  close(): void;
}

export function createEngineAreas(options: EngineAreasOptions): EngineAreas {
  const { client, clock, audit, log, db, strategies } = options;
  const needs = new AreaNeeds(
    () => strategies.active,
    () => vaultOrderViews(db).size > 0,
    options.alsoNeeded,
  );
  const access = new AreaAccess({
    clock,
    audit,
    log,
    retryMs: options.retryMs,
    probe: (area, signal) => probeArea(client, area, { wallet: options.wallet, signal }),
    needed: (area) => needs.needed(area),
    users: (area) => needs.users(area),
  });
  const gate = createAreaGate(access, needs);
  const offs = [access.observe(client.events)];

  let said = '';
  const sayInUse = (): void => {
    const used = API_AREAS.filter((area) => needs.needed(area));
    const unused = API_AREAS.filter((area) => !used.includes(area));
    const words = (areas: readonly ApiArea[]): string => (areas.length === 0 ? 'none' : areas.join(', '));
    const text = `Jupiter API areas in use: ${words(used)}; not polled (no loaded strategy needs them): ${words(unused)}`;
    if (text === said) return;
    said = text;
    log.info({ areas: used, unused }, text);
  };

  return {
    access,
    gate,
    status: () => access.status(),
    onChange(changed) {
      offs.push(access.events.on('changed', changed), strategies.events.on('applied', changed), strategies.events.on('removed', changed));
    },
    start(signal) {
      sayInUse();
      offs.push(strategies.events.on('polled', sayInUse));
      access.start(signal);
    },
    done: () => access.done(),
    close() {
      for (const off of offs.splice(0)) off();
    },
  };
}
