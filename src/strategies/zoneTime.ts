/**
 * Wall-clock arithmetic in an IANA zone, for schedules. A "local time" here is a zone's calendar
 * fields (year … second) packed as if they were UTC: `Date.UTC(y, m, d, h, mi, s)`. It is not an
 * instant; `resolveLocal` says which instants carry it.
 */

const HOUR = 3_600_000;
/** Every zone's offset lies within UTC-12 … UTC+14: the instants showing a local time lie within this of it. */
const AHEAD = 14 * HOUR;
const BEHIND = 12 * HOUR;

// Building a formatter costs far more than using one; every schedule in a zone shares it.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}

/**
 * The zone's offset from UTC at instant `at` (epoch ms), in ms: local time = at + offset.
 * `format` and a scan of its digits cost a third of `formatToParts`, and a schedule asks this
 * several times per run it plans. With `hourCycle: 'h23'` the en-US text is "M/D/YYYY, HH:MM:SS":
 * six runs of digits, whatever separators the ICU version puts between them.
 */
export function zoneOffset(zone: string, at: number): number {
  const text = formatFor(zone).format(at);
  const fields = [0, 0, 0, 0, 0, 0];
  let field = -1;
  let inDigits = false;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit >= 0 && digit <= 9) {
      if (!inDigits) field++;
      inDigits = true;
      if (field < 6) fields[field] = (fields[field] as number) * 10 + digit;
    } else inDigits = false;
  }
  const [month, day, year, hour, minute, second] = fields as [number, number, number, number, number, number];
  const wholeSecond = at - (((at % 1000) + 1000) % 1000);
  return Date.UTC(year, month - 1, day, hour, minute, second) - wholeSecond;
}

/** Where a local time falls in its zone. */
export type LocalResolution =
  /** An ordinary local time: one instant shows it. */
  | { readonly kind: 'single'; readonly at: number }
  /** An autumn change shows it twice: `first` (the offset before the change), then `second`. */
  | { readonly kind: 'repeated'; readonly first: number; readonly second: number; readonly change: number }
  /**
   * A spring change skips it. `shifted` reads it with the offset in force before the change,
   * which is the instant it would have been had the clocks not moved: as long after the jump as
   * the local time is after the start of the skipped interval (02:30 → 03:30 when 02:00 → 03:00).
   */
  | { readonly kind: 'skipped'; readonly shifted: number; readonly change: number };

/** Which instants show local time `local` in `zone` (`change` is the size of a nearby clock change, ms). */
export function resolveLocal(zone: string, local: number): LocalResolution {
  const before = zoneOffset(zone, local - AHEAD);
  const after = zoneOffset(zone, local + BEHIND);
  if (before === after) return { kind: 'single', at: local - before };
  // A change lies within a day of this local time: see which of the two offsets really shows it.
  const early = local - before;
  const late = local - after;
  const earlyShows = zoneOffset(zone, early) === before;
  const lateShows = zoneOffset(zone, late) === after;
  const change = Math.abs(after - before);
  if (earlyShows && lateShows) return { kind: 'repeated', first: Math.min(early, late), second: Math.max(early, late), change };
  if (earlyShows) return { kind: 'single', at: early };
  if (lateShows) return { kind: 'single', at: late };
  return { kind: 'skipped', shifted: early, change };
}

/** The least offset the zone has within a day either side of `at`: where a scan of local times must start. */
export function leastOffsetAround(zone: string, at: number): number {
  return Math.min(zoneOffset(zone, at - AHEAD - BEHIND), zoneOffset(zone, at + AHEAD + BEHIND));
}
