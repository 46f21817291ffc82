/**
 * Two enabled strategies that manage the same thing, told before they meet in the wallet. Nothing
 * stops them running together (the wallet has one balance and the first to act wins), so this is a
 * warning that `jupbot validate`, `jupbot plan` and the daemon's strategy scan give, never an error.
 *
 * What a strategy *manages*, precisely:
 * - a `price-order` manages its `sell` token: its exits sell it, and an entry buys it first. Two of
 *   them on one token size their exits from the same balance, so together they may sell more than
 *   the wallet holds, or find the tokens locked in the other's vault orders;
 * - a `dca` manages its pair: it buys `buy` paying with `pay_with`. Two on the same pair buy twice
 *   from one budget (most often one file copied). A DCA buying what a price-order sells is not an
 *   overlap: one accumulates, the other takes profit on the amount it armed;
 * - a `prediction-exit` manages the positions of its market (else of its event) on its side (`any`
 *   meets both). Two whose market, or else event, id is the same and whose sides meet sell the same
 *   contracts, each by its own rules. A market named by one and its event by the other are not compared: which
 *   event a market belongs to is the API's answer, not the files'.
 *
 * Tokens are compared by mint once resolved (paper mode offline, the daemon always); unresolved (live
 * mode offline), by the reference as written, a symbol in any case.
 */
import type { Amount } from './strategyFields.js';
import type { StrategySpec } from './strategySchema.js';
import type { ResolvedToken, TokenRole } from './tokenResolution.js';

export interface OverlapCandidate {
  readonly file: string;
  readonly spec: StrategySpec;
  /** The resolved tokens, when known. */
  readonly tokens?: Readonly<Partial<Record<TokenRole, ResolvedToken>>> | undefined;
}

export interface OverlapMember {
  readonly name: string;
  readonly file: string;
  /** What the strategy would do to the thing both manage, in one line. */
  readonly does: string;
}

export interface StrategyOverlap {
  /** Stable identity of the overlap: what is shared and by whom (names sorted). */
  readonly key: string;
  /** What both manage, and why it matters, in words. */
  readonly what: string;
  readonly strategies: readonly [OverlapMember, OverlapMember];
}

/** A mint is base58 of 32 to 44 characters; anything else is a symbol, compared in any case. */
const MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

function tokenId(ref: string, resolved: ResolvedToken | undefined): string {
  if (resolved !== undefined) return resolved.mint;
  return MINT.test(ref) ? ref : ref.toUpperCase();
}

function tokenShown(ref: string, resolved: ResolvedToken | undefined): string {
  return resolved === undefined || resolved.symbol === resolved.mint ? ref : resolved.symbol;
}

/** What is shared (the key's first part and the words), per strategy; null for nothing comparable. */
interface Managed {
  readonly ids: readonly string[];
  readonly what: string;
}

function managed(c: OverlapCandidate): Managed | null {
  const { spec, tokens } = c;
  switch (spec.kind) {
    case 'price-order': {
      const sell = tokenShown(spec.sell, tokens?.sell);
      return {
        ids: [`sell:${tokenId(spec.sell, tokens?.sell)}`],
        what: `both sell ${sell}: each sizes its exits from the same ${sell} balance, so together they may sell more than the wallet holds or find it locked in the other's orders`,
      };
    }
    case 'dca': {
      const buy = tokenShown(spec.buy, tokens?.buy);
      const pay = tokenShown(spec.pay_with, tokens?.pay_with);
      return {
        ids: [`dca:${tokenId(spec.buy, tokens?.buy)}:${tokenId(spec.pay_with, tokens?.pay_with)}`],
        what: `both buy ${buy} with ${pay}: each run of either spends from the same ${pay} budget (one file copied?)`,
      };
    }
    case 'prediction-exit': {
      const { market, event, side } = spec.positions;
      const sides = side === 'any' ? ['yes', 'no'] : [side];
      // Both named: the market's positions only (the event narrows nothing more).
      const place = market !== undefined ? `market ${market}` : `event ${event ?? ''}`;
      return { ids: sides.map((s) => `positions:${place}:${s}`), what: '' };
    }
  }
}

function amountWords(amount: Amount, symbol: string): string {
  return amount.kind === 'share' ? `${amount.text} of the ${symbol} balance` : `${amount.text} ${symbol}`;
}

/** One line: what this strategy would do to what it manages. */
export function strategyDoes(c: OverlapCandidate): string {
  const { spec, tokens } = c;
  switch (spec.kind) {
    case 'price-order': {
      const sell = tokenShown(spec.sell, tokens?.sell);
      const exits = [
        spec.entry && `buys below $${spec.entry.buy_below.text} first`,
        spec.take_profit && `take-profit at ${spec.take_profit.map((r) => r.at.text).join(', ')}`,
        spec.stop_loss && `stop loss at ${spec.stop_loss.at.text}`,
        spec.trailing_stop && `trailing stop ${spec.trailing_stop.distance.text} below the peak`,
      ].filter((x): x is string => typeof x === 'string');
      const how = spec.execution === 'vault' ? 'vault orders' : 'watched locally, swapped';
      return `sells ${amountWords(spec.amount, sell)} for ${tokenShown(spec.receive, tokens?.receive)} (${exits.join('; ')}; ${how})`;
    }
    case 'dca': {
      const buy = tokenShown(spec.buy, tokens?.buy);
      const pay = tokenShown(spec.pay_with, tokens?.pay_with);
      const when =
        spec.execution === 'vault' && spec.vault
          ? `a vault DCA order of ${spec.vault.orders} rounds`
          : spec.schedule
            ? `at "${spec.schedule.cron}" in ${spec.schedule.timezone}`
            : 'on its schedule';
      return `buys ${buy} with ${amountWords(spec.amount, pay)} a run, ${when}`;
    }
    case 'prediction-exit': {
      const { market, event, side } = spec.positions;
      const where = [market && `market ${market}`, event && `event ${event}`].filter(Boolean).join(', ');
      const rules = spec.rules.map((r) => `${r.id} (${r.action === 'sell_part' && r.share ? `sells ${r.share.text}` : 'sells all'})`);
      return `manages ${side === 'any' ? 'YES and NO' : side.toUpperCase()} positions in ${where}: ${rules.length > 0 ? rules.join(', ') : 'no sell rule'}${spec.claim_when_settled ? '; claims when settled' : ''}`;
    }
  }
}

/** Every overlap between two enabled candidates, each pair once per shared thing, in the order found. */
export function strategyOverlaps(candidates: readonly OverlapCandidate[]): StrategyOverlap[] {
  const enabled = candidates.filter((c) => c.spec.enabled);
  const out = new Map<string, StrategyOverlap>();
  for (let i = 0; i < enabled.length; i++) {
    const a = enabled[i] as OverlapCandidate;
    const ma = managed(a);
    for (let j = i + 1; j < enabled.length; j++) {
      const b = enabled[j] as OverlapCandidate;
      const mb = managed(b);
      if (ma === null || mb === null || a.spec.name === b.spec.name) continue;
      const shared = ma.ids.filter((id) => mb.ids.includes(id));
      if (shared.length === 0) continue;
      const [first, second] = a.spec.name < b.spec.name ? [a, b] : [b, a];
      // A prediction overlap is named by its place; the sides shared follow from both files.
      const thing = a.spec.kind === 'prediction-exit' ? (shared[0] as string).split(':').slice(0, 2).join(':') : (shared[0] as string);
      const key = `${thing}|${first.spec.name}|${second.spec.name}`;
      if (out.has(key)) continue;
      const what =
        a.spec.kind === 'prediction-exit'
          ? `both manage ${sidesWords(shared)} positions in ${placeOf(shared[0] as string)}: the first to act sells contracts the other's rules count on`
          : ma.what;
      out.set(key, {
        key,
        what,
        strategies: [first, second].map((c) => ({ name: c.spec.name, file: c.file, does: strategyDoes(c) })) as [OverlapMember, OverlapMember],
      });
    }
  }
  return [...out.values()];
}

const placeOf = (id: string): string => id.split(':')[1] as string;

/** The sides shared in the first place shared. */
function sidesWords(shared: readonly string[]): string {
  const place = placeOf(shared[0] as string);
  const sides = new Set(shared.filter((id) => placeOf(id) === place).map((id) => id.split(':')[2]));
  return sides.size === 2 ? 'YES and NO' : [...sides].join('').toUpperCase();
}

/** The overlap as lines for people: the warning, then one line per strategy. */
export function overlapLines(overlap: StrategyOverlap): string[] {
  const [a, b] = overlap.strategies;
  return [`warning: ${a.name} and ${b.name} overlap: ${overlap.what}`, ...[a, b].map((m) => `  ${m.name} (${m.file}): ${m.does}`)];
}
