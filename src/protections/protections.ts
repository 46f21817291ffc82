/**
 * The account-wide protections (config `protections:`, docs/protections.md): a daily realized loss,
 * a drawdown of equity from its peak, the total exposure, a cooldown after losing exits in a row.
 *
 * They are evaluated on the daemon's clock each time the prices or balances feed publishes a read
 * (no timer of their own), and their time-bound clears (the day boundary, a cooldown's end) also
 * whenever the decide loop asks `blocks()`. Drawdown and exposure judge their figure over the last
 * `settleMs` (settlingWindow.ts): the feeds it adds up lag one another, and a fill seen by the
 * wallet before the order mirror must neither raise the peak nor read as a drop. A trip is recorded
 * in the database with its `protection.tripped` action (protectionRecords.ts), notified, logged,
 * shown in `/status` and fails `/readyz`; while it is active, `blocks()` pauses the strategies it
 * says (buying ones, or all). Clears: `max_daily_loss` at the next UTC midnight, `loss_cooldown`
 * when its time is up, `max_exposure` when the figure stayed under its limit for the window,
 * `max_drawdown` only by an operator (`clear`, or `clearProtection` on the database).
 *
 * With no protection configured nothing is built: no listener, no query, `blocks()` says null.
 */
import type { Clock } from '../clock.js';
import type { Feed } from '../engine/feeds/poller.js';
import type { Balances } from '../engine/feeds/balances.js';
import type { PriceMap } from '../engine/feeds/prices.js';
import { vaultOrderViews } from '../engine/tick/vaultOrderViews.js';
import { errorMessage } from '../errors.js';
import type { Position } from '../jupiter/schemas/prediction.js';
import { formatFixed } from '../money/decimal.js';
import type { Logger } from '../ops/log.js';
import type { Notification } from '../ops/notification.js';
import type { ReadinessCheck } from '../ops/opsServer.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { DAY_MS } from '../strategies/snapshot.js';
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import { accountFigures } from './accountFigures.js';
import { isBuying } from './buyingStrategy.js';
import { type Figures, type ProtectionStatus, protectionStatus, tripText } from './protectionStatus.js';
import {
  activeTrips,
  clearProtection,
  equityPeak,
  keptPrice,
  openDeposits,
  recordTrip,
  saveEquityPeak,
  type TripRecord,
  tripSince,
} from './protectionRecords.js';
import { anyProtection, type ProtectionName, type ProtectionsConfig } from './protectionsSchema.js';
import { type Exit, realizedExits, realizedSince, currentStreak, streakEnds } from './realizedExits.js';
import { FillsVersion, dollars, percentOf } from './protectionFigures.js';
import { SettlingWindow } from './settlingWindow.js';

export type { ProtectionStatus } from './protectionStatus.js';

export interface ProtectionsOptions {
  readonly config: ProtectionsConfig;
  readonly clock: Clock;
  readonly db: Db;
  readonly audit: AuditLog;
  readonly log?: Logger | undefined;
  readonly notify: (notification: Notification) => void;
  /**
   * How long a drawdown or exposure figure must hold before it counts: longer than the slowest feed
   * equity adds up can lag the wallet (the engine gives twice the slower of `poll.orders` and `poll.positions`).
   */
  readonly settleMs: number;
  /** The feeds the figures are read from; their reads are what evaluates the protections. */
  readonly feeds: {
    readonly balances: Feed<Balances>;
    readonly prices: Feed<PriceMap>;
    readonly positions: Feed<readonly Position[]> | null;
  };
}

export interface Protections {
  /** Whether any protection is configured (none: every method is a no-op). */
  readonly configured: boolean;
  /** Why `strategy` may not decide now (an active trip that pauses it), else null: the decide loop's `paused` hook. */
  blocks(strategy: LoadedStrategy): string | null;
  /** Evaluates every protection now (the feeds' reads call it). */
  evaluate(): void;
  /** Clears the active trip of `name` (an operator's resume); false when none was active. */
  clear(name: ProtectionName, by: string, reason?: string): boolean;
  /** Clears every active trip (an operator's `jupbot resume --protections`); returns their names. */
  clearAll(by: string): readonly ProtectionName[];
  /** One entry per configured protection, for `/status`. */
  status(): readonly ProtectionStatus[];
  /** Fails while a trip is active, naming it and how it clears. */
  readiness(): ReadinessCheck;
  /** Subscribes `evaluate` to the feeds' reads; returns the unsubscribe. */
  watch(): () => void;
}

const NONE: Protections = {
  configured: false,
  blocks: () => null,
  evaluate: () => undefined,
  clear: () => false,
  clearAll: () => [],
  status: () => [],
  readiness: () => ({ name: 'protections', probe: () => ({ ok: true, detail: 'none configured' }) }),
  watch: () => () => undefined,
};

const dayStart = (at: number): number => Math.floor(at / DAY_MS) * DAY_MS;

export function createProtections(options: ProtectionsOptions): Protections {
  const { config, clock, db, audit, log, feeds } = options;
  if (!anyProtection(config)) return NONE;
  const fills = new FillsVersion(db);
  let exits: Exit[] = [];
  let active: TripRecord[] = [];
  let checkedAt: number | null = null;
  const figures: Figures = { dailyLossUsd: null, streak: null, drawdown: null, exposureUsd: null };
  const equityWindow = new SettlingWindow(options.settleMs);
  const exposureWindow = new SettlingWindow(options.settleMs);

  function tripped(trip: TripRecord): void {
    const text = tripText(trip, config);
    log?.warn({ protection: trip.name, pauses: trip.pauses, ...trip.data }, `protection tripped: ${text}`);
    options.notify({ type: 'protection', name: trip.name, action: 'tripped', detail: text });
  }

  function clear(name: ProtectionName, by: string, reason: string, since?: number): boolean {
    const cleared = clearProtection(db, audit, name, { at: clock.now(), by, reason, since });
    if (cleared === null) return false;
    active = active.filter((t) => t.name !== name || t.since !== cleared.since);
    log?.info({ protection: name, by }, `protection ${name} cleared: ${reason}`);
    options.notify({ type: 'protection', name, action: 'cleared', detail: `${reason} (by ${by})` });
    return true;
  }

  function trip(name: ProtectionName, since: number, pauses: TripRecord['pauses'], data: Record<string, unknown>): void {
    if (!recordTrip(db, audit, { name, since, pauses, data })) return;
    const record: TripRecord = { name, since, pauses, data, clearedAt: null, clearedBy: null };
    active = [...active.filter((t) => t.name !== name), record];
    tripped(record);
  }

  /** The time-bound clears, and the active trips as the database has them (another process may have cleared one). */
  function checkTime(now: number): void {
    if (checkedAt === now) return;
    checkedAt = now;
    active = activeTrips(db);
    for (const t of active) {
      const cooldown = config.loss_cooldown;
      // A protection taken out of the config leaves nothing paused behind it.
      if (config[t.name] === null) clear(t.name, 'config', 'the protection is no longer configured', t.since);
      else if (t.name === 'max_daily_loss' && now >= dayStart(t.since) + DAY_MS) clear(t.name, 'day boundary', 'a new UTC day began', t.since);
      else if (t.name === 'loss_cooldown' && cooldown !== null && now >= t.since + cooldown.forMs)
        clear(t.name, 'cooldown over', 'the cooldown ran its time', t.since);
    }
  }

  function evaluateLosses(now: number): void {
    if (config.max_daily_loss === null && config.loss_cooldown === null) return;
    if (fills.changed()) exits = realizedExits(db);
    const daily = config.max_daily_loss;
    if (daily !== null) {
      const since = dayStart(now);
      const realized = realizedSince(exits, since);
      const loss = realized < 0n ? -realized : 0n;
      figures.dailyLossUsd = loss;
      const limit = dollars(daily.limitUsd);
      if (loss >= limit && tripSince(db, 'max_daily_loss', since) === undefined) {
        const today = exits.filter((e) => e.at >= since);
        trip('max_daily_loss', now, daily.pauses, {
          limit: `${daily.limitUsd} USD`,
          figure: `${formatFixed(loss)} USD`,
          dayStart: new Date(since).toISOString(),
          exits: today.length,
          realizedUsd: formatFixed(realized),
        });
      }
    }
    const cooldown = config.loss_cooldown;
    if (cooldown !== null) {
      figures.streak = currentStreak(exits, cooldown.losingExits);
      const last = streakEnds(exits, cooldown.losingExits).at(-1);
      if (last !== undefined && now < last.at + cooldown.forMs && tripSince(db, 'loss_cooldown', last.at)?.since !== last.at) {
        trip('loss_cooldown', last.at, cooldown.pauses, {
          limit: `${cooldown.losingExits} losing exits in a row`,
          figure: `${cooldown.losingExits} losing exits in a row`,
          lossesUsd: formatFixed(-last.losses),
          until: new Date(last.at + cooldown.forMs).toISOString(),
        });
      }
    }
  }

  function evaluateAccount(now: number): void {
    if (config.max_drawdown === null && config.max_exposure === null) return;
    const balances = feeds.balances.state().value;
    const prices = feeds.prices.state().value;
    // Before the first price read every token but dollars would look worthless: no figure yet.
    if (prices === undefined && [...(balances?.byMint.keys() ?? [])].length > 0) return;
    const kept = (mint: string): string | undefined => keptPrice(db, mint);
    const account = accountFigures({ balances, prices, kept, deposits: openDeposits(db), positions: feeds.positions?.state().value });
    if (account === null) return;
    const parts = {
      equityUsd: formatFixed(account.equityUsd),
      walletUsd: formatFixed(account.walletUsd),
      vaultUsd: formatFixed(account.vaultUsd),
      positionsUsd: formatFixed(account.positionsUsd),
      unpriced: account.unpriced,
    };
    const drawdown = config.max_drawdown;
    equityWindow.add(now, account.equityUsd);
    // The peak rises only to a level equity held over the whole window (its lowest), and the drop is
    // measured from the window's best (its highest): only a drop that lasted the window trips.
    const held = equityWindow.lowest();
    const best = equityWindow.highest();
    if (drawdown !== null && held !== null && best !== null) {
      const kept = equityPeak(db);
      const peak = kept === undefined ? undefined : dollars(kept.usd);
      if (peak === undefined || held > peak) saveEquityPeak(db, formatFixed(held), now);
      const top = peak === undefined || held > peak ? held : peak;
      const drop = top > best ? percentOf(top - best, top) : 0n;
      figures.drawdown = { dropPercent: drop, peakUsd: top, equityUsd: best };
      if (drop >= dollars(drawdown.percent) && !active.some((t) => t.name === 'max_drawdown')) {
        trip('max_drawdown', now, drawdown.pauses, {
          limit: `${drawdown.percent}%`,
          figure: `${formatFixed(drop)}%`,
          peakUsd: formatFixed(top),
          peakAt: new Date(kept?.at ?? now).toISOString(),
          settledEquityUsd: formatFixed(best),
          ...parts,
        });
      }
    }
    const exposure = config.max_exposure;
    exposureWindow.add(now, account.exposureUsd);
    // A trip needs exposure over the limit for the whole window, a clear under it for the whole window.
    const least = exposureWindow.lowest();
    const most = exposureWindow.highest();
    if (exposure !== null) figures.exposureUsd = account.exposureUsd;
    if (exposure !== null && least !== null && most !== null) {
      const limit = dollars(exposure.limitUsd);
      const isActive = active.some((t) => t.name === 'max_exposure');
      if (least >= limit && !isActive) {
        trip('max_exposure', now, exposure.pauses, { limit: `${exposure.limitUsd} USD`, figure: `${formatFixed(least)} USD`, ...parts });
      } else if (most < limit && isActive) {
        clear('max_exposure', 'under limit', `exposure ${formatFixed(most)} USD is back under ${exposure.limitUsd} USD`);
      }
    }
  }

  /** The vault orders by strategy, read once per instant: `blocks()` is asked for every strategy of a tick. */
  let orders: { at: number; views: ReturnType<typeof vaultOrderViews> } | null = null;
  const ordersNow = (): ReturnType<typeof vaultOrderViews> => {
    const now = clock.now();
    if (orders?.at !== now) orders = { at: now, views: vaultOrderViews(db) };
    return orders.views;
  };

  function evaluate(): void {
    try {
      const now = clock.now();
      checkTime(now);
      evaluateLosses(now);
      evaluateAccount(now);
    } catch (error) {
      // A failing database is reported by its own health check; the next read tries again.
      log?.error({ err: error }, `protections not evaluated: ${errorMessage(error)}`);
    }
  }

  return {
    configured: true,
    blocks(strategy) {
      try {
        checkTime(clock.now());
      } catch (error) {
        log?.error({ err: error }, `protections not checked: ${errorMessage(error)}`);
      }
      for (const t of active) {
        if (t.pauses === 'buying' && !isBuying(strategy, ordersNow)) continue;
        return `protection ${t.name} tripped (${tripText(t, config)})`;
      }
      return null;
    },
    evaluate,
    clear: (name, by, reason = 'cleared by an operator') => clear(name, by, reason),
    clearAll(by) {
      // The database's list, not memory's: another process may have tripped or cleared one.
      return activeTrips(db).flatMap((t) => (clear(t.name, by, 'cleared by an operator (jupbot resume --protections)', t.since) ? [t.name] : []));
    },
    status: () => protectionStatus(config, figures, active),
    readiness: () => ({
      name: 'protections',
      probe: () => (active.length === 0 ? { ok: true } : { ok: false, detail: active.map((t) => `${t.name} tripped: ${tripText(t, config)}`).join('; ') }),
    }),
    watch() {
      // The first evaluation comes with the first read, before the decide loop's first tick.
      const offs = [feeds.prices.events.on('updated', evaluate), feeds.balances.events.on('updated', evaluate)];
      return () => offs.forEach((off) => off());
    },
  };
}
