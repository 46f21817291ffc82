import { InvalidArgumentError } from 'commander';
import type { Clock } from '../clock.js';
const EPOCH_MS = /^\d{1,16}$/;
// A date-time must carry its zone: "2026-03-29T02:30" alone means a different instant on every server.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|([+-])(\d{2}):(\d{2})))?$/i;
const AGO = /^(\d+)(ms|s|m|h|d|w)$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Epoch ms, a UTC date or an ISO date-time with its zone, as UTC epoch ms; undefined otherwise. */
export function parseInstant(text: string): number | undefined {
  const value = text.trim();
  return EPOCH_MS.test(value) ? Number(value) : parseDateTime(value);
}

function parseDateTime(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, , sign, zh, zm] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm));
  const valid = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hour <= 23 && minute <= 59 && second <= 59;
  if (!valid || Math.abs(offset) > 14 * 60) return undefined;
  const ms = Number((frac ?? '').padEnd(3, '0'));
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * 60_000;
}

/**
 * Parses a time given on the command line into UTC epoch milliseconds. Accepts epoch ms
 * (`1767225600000`), a UTC date (`2026-01-01`, midnight UTC), an ISO date-time with an explicit
 * zone (`2026-01-01T09:30:00Z`, `2026-01-01T10:30+01:00`), or a duration before `now`
 * (`90m`, `24h`, `7d`). Throws RangeError naming the accepted forms otherwise, including for
 * impossible dates such as 2026-02-30 (which JavaScript's Date would silently roll over).
 */
export function parseTimeArg(text: string, now: number): number {
  const value = text.trim();
  const ago = AGO.exec(value);
  if (ago) return now - Number(ago[1]) * (UNIT_MS[ago[2] ?? ''] ?? 0);
  if (EPOCH_MS.test(value)) return Number(value);
  const ms = parseDateTime(value);
  if (ms !== undefined) return ms;
  throw new RangeError(
    `cannot read time "${text}": use epoch ms, a UTC date (2026-01-31), an ISO date-time with its zone ` +
      '(2026-01-31T09:30:00Z or +01:00), or a duration ago (90m, 24h, 7d)',
  );
}

/** A commander option parser for times (`--from`, `--since`, …): {@link parseTimeArg} against `clock`, its error as a usage error. */
export function timeOption(clock: Clock): (text: string) => number {
  return (text) => {
    try {
      return parseTimeArg(text, clock.now());
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}
