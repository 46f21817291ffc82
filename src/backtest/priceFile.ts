/**
 * A price history for a backtest, read from CSV: a header naming the columns, then one price per
 * row. `time` (epoch ms, a UTC date, or an ISO date-time with its zone) and `usd` (a plain decimal)
 * are required (a price with more than 18 places is rounded to the nearest 1e-18, exactly, on its
 * digits: a daemon keeps a float's shortest text, 21 places for a price such as BONK's, and the
 * export writes it as kept so the file stays the daemon's record), and the token as `mint` or `token` (a verified symbol such as SOL, or a mint). A
 * token of the form `prediction:<market>:yes|no` is a prediction market's mark: what one contract of
 * that side sells for. `jupbot prices export` writes this format (time, token, mint, usd), so a
 * daemon's own history can be replayed. Every problem is reported at once, as `file:line:col`.
 */
import type { Diagnostic } from '../config/diagnostics.js';
import { formatDiagnostics } from '../config/diagnostics.js';
import { parseInstant } from '../cli/timeArg.js';
import { JupbotError } from '../errors.js';
import { type Fixed, parseFixedRounded } from '../money/decimal.js';

/** One price at one instant: a mint's dollar price, or a prediction side's mark (`prediction:<market>:<side>`). */
export interface PricePoint {
  readonly key: string;
  readonly usd: Fixed;
  /** The price as written (what the simulator is given, as a number). */
  readonly text: string;
}

export interface PriceStep {
  readonly at: number;
  readonly points: readonly PricePoint[];
}

export interface PriceHistory {
  readonly file: string;
  /** Ascending, one per distinct instant. */
  readonly steps: readonly PriceStep[];
  /** Every key priced at least once. */
  readonly keys: readonly string[];
  /** The smallest gap between two instants (the file's resolution); 0 for a single instant. */
  readonly resolutionMs: number;
}

export class PriceFileError extends JupbotError {
  override name = 'PriceFileError';

  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super('BACKTEST_PRICES_INVALID', formatDiagnostics(diagnostics), { details: { problems: diagnostics.length } });
  }
}

/** Fields of one CSV line (RFC 4180 quotes allowed), with the 1-based column each starts at. */
function splitLine(line: string): { value: string; col: number }[] {
  const fields: { value: string; col: number }[] = [];
  let i = 0;
  for (;;) {
    const col = i + 1;
    let value = '';
    if (line[i] === '"') {
      i++;
      while (i < line.length && !(line[i] === '"' && line[i + 1] !== '"')) {
        value += line[i];
        i += line[i] === '"' ? 2 : 1;
      }
      i++;
    } else {
      const end = line.indexOf(',', i);
      value = line.slice(i, end === -1 ? line.length : end);
      i = end === -1 ? line.length : end;
    }
    fields.push({ value, col });
    if (line[i] !== ',') return fields;
    i++;
  }
}

const PREDICTION_KEY = /^prediction:[^:\s]+:(yes|no)$/;
const MAX_PROBLEMS = 20;

/**
 * Parses `text`. `resolveToken` turns a symbol or mint into a mint the backtest can price, or
 * returns a message saying why not.
 */
export function parsePriceFile(text: string, file: string, resolveToken: (token: string) => string | { readonly problem: string }): PriceHistory {
  const problems: Diagnostic[] = [];
  const problem = (line: number, col: number, message: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push({ file, line, col, message, path: [] });
  };
  const lines = text.split(/\r?\n/);
  const header = splitLine(lines[0] ?? '').map((f) => f.value.trim().toLowerCase());
  const column = (name: string): number => header.indexOf(name);
  const [timeCol, usdCol, mintCol, tokenCol] = [column('time'), column('usd'), column('mint'), column('token')];
  if (timeCol === -1 || usdCol === -1 || (mintCol === -1 && tokenCol === -1)) {
    problem(1, 1, `the header must name the columns time, usd and token (or mint); found: ${header.join(', ') || 'nothing'}`);
    throw new PriceFileError(problems);
  }
  const byTime = new Map<number, PricePoint[]>();
  const keys = new Set<string>();
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n] as string;
    if (line.trim() === '') continue;
    const fields = splitLine(line);
    const at = (i: number): { value: string; col: number } => fields[i] ?? { value: '', col: line.length + 1 };
    const time = at(timeCol);
    const instant = parseInstant(time.value);
    if (instant === undefined)
      problem(n + 1, time.col, `cannot read time "${time.value}": use epoch ms or an ISO date-time with its zone (2026-01-01T09:30:00Z)`);
    const usd = at(usdCol);
    const price = parseFixedRounded(usd.value.trim());
    if (price === undefined || price < 0n) problem(n + 1, usd.col, `cannot read price "${usd.value}": a non-negative decimal such as 151.25`);
    // A prediction mark may sit in either column; otherwise the mint column wins over a symbol.
    const tokenField =
      tokenCol !== -1 && PREDICTION_KEY.test(at(tokenCol).value) ? at(tokenCol) : mintCol !== -1 && at(mintCol).value !== '' ? at(mintCol) : at(tokenCol);
    let key: string | undefined;
    if (PREDICTION_KEY.test(tokenField.value)) {
      key = tokenField.value;
      if (price !== undefined && price > 10n ** 18n) problem(n + 1, usd.col, `a mark is at most 1 USD (a contract pays 1 USD), got ${usd.value}`);
    } else {
      const resolved = resolveToken(tokenField.value.trim());
      if (typeof resolved === 'string') key = resolved;
      else problem(n + 1, tokenField.col, resolved.problem);
    }
    if (instant === undefined || price === undefined || price < 0n || key === undefined) continue;
    keys.add(key);
    const points = byTime.get(instant) ?? [];
    points.push({ key, usd: price, text: usd.value.trim() });
    byTime.set(instant, points);
  }
  if (problems.length > 0) throw new PriceFileError(problems);
  if (byTime.size === 0) {
    problem(1, 1, 'the file holds no prices');
    throw new PriceFileError(problems);
  }
  return historyOf(file, byTime, keys);
}

/** The samples a daemon kept (`price_samples`) as a history; tokens the simulated market lacks are left out, and named. */
export function historyFromSamples(
  source: string,
  samples: readonly { readonly at: number; readonly mint: string; readonly usd: string }[],
  resolveToken: (token: string) => string | { readonly problem: string },
): { history: PriceHistory; skipped: string[] } {
  const byTime = new Map<number, PricePoint[]>();
  const keys = new Set<string>();
  const skipped = new Set<string>();
  for (const sample of samples) {
    const usd = parseFixedRounded(sample.usd);
    const key = PREDICTION_KEY.test(sample.mint) ? sample.mint : resolveToken(sample.mint);
    if (typeof key !== 'string' || usd === undefined) {
      skipped.add(sample.mint);
      continue;
    }
    keys.add(key);
    const points = byTime.get(sample.at) ?? [];
    points.push({ key, usd, text: sample.usd });
    byTime.set(sample.at, points);
  }
  if (byTime.size === 0)
    throw new PriceFileError([{ file: source, line: 0, col: 0, message: 'the database holds no price samples the simulated market can trade', path: [] }]);
  return { history: historyOf(source, byTime, keys), skipped: [...skipped].sort() };
}

function historyOf(file: string, byTime: ReadonlyMap<number, PricePoint[]>, keys: ReadonlySet<string>): PriceHistory {
  const times = [...byTime.keys()].sort((a, b) => a - b);
  let resolutionMs = 0;
  for (let i = 1; i < times.length; i++) {
    const gap = (times[i] as number) - (times[i - 1] as number);
    resolutionMs = resolutionMs === 0 ? gap : Math.min(resolutionMs, gap);
  }
  return { file, steps: times.map((t) => ({ at: t, points: byTime.get(t) as PricePoint[] })), keys: [...keys].sort(), resolutionMs };
}
