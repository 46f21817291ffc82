/**
 * How the protections read for people: one `/status` entry per configured protection (the shape
 * `jupbot status` renders: limit, current figure and headroom in the same unit, and the trip with
 * how it clears), and the one line a trip is told in (log, webhook, `/readyz`, the decide loop's
 * hold reason).
 */
import type { Fixed } from '../money/decimal.js';
import { dollars, twoPlaces } from './protectionFigures.js';
import type { TripRecord } from './protectionRecords.js';
import { PROTECTION_NAMES, type Pauses, type ProtectionName, type ProtectionsConfig } from './protectionsSchema.js';
import { DAY_MS } from '../strategies/snapshot.js';

export interface ProtectionStatus {
  readonly name: ProtectionName;
  /** Human text: "250 USD", "15%", "3 losing exits in a row". */
  readonly limit: string;
  /** The current figure, same unit; "unknown" before the feeds it is computed from have read. */
  readonly figure: string;
  /** What is left before it trips, same unit ("0" when tripped). */
  readonly headroom: string;
  readonly tripped: { readonly since: number; readonly pauses: Pauses; readonly clears: string } | null;
}

/** The figures of the last evaluation; null before one could be made. */
export interface Figures {
  dailyLossUsd: Fixed | null;
  /** Losing exits in a row since the last exit that was not one (or the last cooldown's start). */
  streak: number | null;
  drawdown: { dropPercent: Fixed; peakUsd: Fixed; equityUsd: Fixed } | null;
  exposureUsd: Fixed | null;
}

const iso = (at: number): string => new Date(at).toISOString();

/** How the trip clears, in words. */
export function clearsText(trip: Pick<TripRecord, 'name' | 'since'>, config: ProtectionsConfig): string {
  switch (trip.name) {
    case 'max_daily_loss':
      return `at the next day boundary, ${iso(Math.floor(trip.since / DAY_MS) * DAY_MS + DAY_MS)} (midnight UTC)`;
    case 'loss_cooldown':
      return `when the cooldown ends, ${iso(trip.since + (config.loss_cooldown?.forMs ?? 0))}`;
    case 'max_exposure':
      return `when exposure is back under ${config.max_exposure?.limitUsd ?? '?'} USD`;
    case 'max_drawdown':
      return 'only by an operator (jupbot resume), which also starts a new equity peak';
  }
}

/** One line: what tripped, on which figure, what it pauses and how it clears. */
export function tripText(trip: TripRecord, config: ProtectionsConfig): string {
  const figure = typeof trip.data.figure === 'string' ? trip.data.figure : '?';
  const limit = typeof trip.data.limit === 'string' ? trip.data.limit : '?';
  const what = trip.pauses === 'all' ? 'every strategy paused' : 'buying paused, exits and stops keep working';
  return `${trip.name} at ${iso(trip.since)}: ${figure} reached the limit of ${limit}; ${what}; clears ${clearsText(trip, config)}`;
}

const usd = (value: Fixed): string => `${twoPlaces(value)} USD`;
const left = (limit: Fixed, figure: Fixed): Fixed => (figure >= limit ? 0n : limit - figure);

export function protectionStatus(config: ProtectionsConfig, figures: Figures, active: readonly TripRecord[]): ProtectionStatus[] {
  const out: ProtectionStatus[] = [];
  for (const name of PROTECTION_NAMES) {
    const set = config[name];
    if (set === null) continue;
    const trip = active.find((t) => t.name === name);
    const tripped = trip === undefined ? null : { since: trip.since, pauses: trip.pauses, clears: clearsText(trip, config) };
    const entry = (limit: string, figure: string, headroom: string): ProtectionStatus => ({
      name,
      limit,
      figure,
      headroom: tripped === null ? headroom : '0',
      tripped,
    });
    switch (name) {
      case 'max_daily_loss':
      case 'max_exposure': {
        const limitUsd = name === 'max_daily_loss' ? config.max_daily_loss?.limitUsd : config.max_exposure?.limitUsd;
        const limit = dollars(limitUsd ?? '0');
        const figure = name === 'max_daily_loss' ? figures.dailyLossUsd : figures.exposureUsd;
        out.push(entry(`${limitUsd ?? '?'} USD`, figure === null ? 'unknown' : usd(figure), figure === null ? 'unknown' : usd(left(limit, figure))));
        break;
      }
      case 'max_drawdown': {
        const percent = config.max_drawdown?.percent ?? '0';
        const drop = figures.drawdown?.dropPercent ?? null;
        out.push(
          entry(`${percent}%`, drop === null ? 'unknown' : `${twoPlaces(drop)}%`, drop === null ? 'unknown' : `${twoPlaces(left(dollars(percent), drop))}%`),
        );
        break;
      }
      case 'loss_cooldown': {
        const n = config.loss_cooldown?.losingExits ?? 0;
        const streak = trip === undefined ? figures.streak : n;
        const exits = (k: number): string => `${k} losing exit${k === 1 ? '' : 's'} in a row`;
        out.push(entry(exits(n), streak === null ? 'unknown' : exits(streak), streak === null ? 'unknown' : exits(Math.max(0, n - streak))));
        break;
      }
    }
  }
  return out;
}
