/**
 * The parts of `jupbot status` an operator acts on: the control state (a halt first, on a line of
 * its own), which clock the times are on, the balances with their dollar value, the open orders one
 * per placement with each trigger's distance from the price, the protections with their headroom,
 * and the unrealized P&L with its basis. Each renders from its `/status` key and is left out (or
 * says so) when an older daemon does not serve it. Every time is shown in UTC.
 */
import type { UnrealizedJson } from '../audit/unrealizedFigures.js';
import type { StatusOrderJson, StatusTriggerJson } from '../audit/statusOrders.js';
import { type Fixed, ONE, parseFixed } from '../money/decimal.js';
import { amountText, significantText, usdText } from '../money/humanFigures.js';
import type { BalancesJson, ClockJson } from '../ops/statusMarket.js';
import { renderTable } from './table.js';

/** The control state (the control channel's halt and pauses), when the daemon serves it. */
export interface ControlJson {
  readonly halted: {
    readonly since: number;
    readonly reason: string;
    readonly by: string;
    readonly cancelOrders: boolean;
    readonly closePositions: boolean;
  } | null;
  readonly paused: readonly { readonly strategy: string; readonly since: number; readonly reason: string; readonly by: string }[];
}

/** One configured account-wide protection, when the daemon serves them. */
export interface ProtectionJson {
  readonly name: string;
  readonly limit: string;
  readonly figure: string;
  readonly headroom: string;
  readonly tripped: { readonly since: number; readonly pauses: 'buying' | 'all'; readonly clears: string } | null;
}

/** A time for people: UTC, to the second. */
export const iso = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '—' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** Exact decimal text as `/status` carries it, a loss with its minus sign. */
function signedFixed(text: string): Fixed | undefined {
  if (!text.startsWith('-')) return parseFixed(text);
  const value = parseFixed(text.slice(1));
  return value === undefined ? undefined : -value;
}

/** Dollars to the cent, a loss with its minus sign; '—' for none. */
export const dollars = (text: string | null | undefined): string => {
  const value = text === null || text === undefined ? undefined : signedFixed(text);
  return value === undefined ? '—' : usdText(value);
};

const price = (text: string | null): string => {
  const value = text === null ? undefined : parseFixed(text);
  return value === undefined ? '—' : `$${significantText(value)}`;
};

const amount = (text: string): string => {
  const value = parseFixed(text);
  return value === undefined ? text : amountText(value);
};

/** A signed percent to two places, rounded half away from zero: "+20.00%", "-9.09%". */
export function percentText(text: string): string {
  const value = signedFixed(text);
  if (value === undefined) return text;
  const abs = value < 0n ? -value : value;
  const hundredths = (abs * 100n + ONE / 2n) / ONE;
  const sign = value < 0n && hundredths > 0n ? '-' : value > 0n && hundredths > 0n ? '+' : '';
  return `${sign}${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}%`;
}

/** The halt, alone at the top: nothing new trades while it holds. */
export function haltLine(control: ControlJson | undefined): string[] {
  const halted = control?.halted;
  if (halted === null || halted === undefined) return [];
  const what = [halted.cancelOrders && 'open orders cancelled', halted.closePositions && 'positions closed'].filter(Boolean).join(', ');
  return [`HALTED since ${iso(halted.since)} by ${halted.by}: ${halted.reason}${what === '' ? '' : ` (${what})`}`];
}

export function pausedLines(control: ControlJson | undefined): string[] {
  return (control?.paused ?? []).map((p) => `PAUSED: ${p.strategy} since ${iso(p.since)} by ${p.by}: ${p.reason}`);
}

/** Which clock every time shown is on: in paper mode the simulated world's, which is not the wall clock. */
export function clockLine(clock: ClockJson | undefined, mode: string): string {
  if (clock === undefined) return `clock: times in UTC${mode === 'paper' ? ", on the paper world's simulated clock" : ''}`;
  if (clock.kind === 'wall') return "clock: times in UTC, on the daemon's wall clock";
  const speed = clock.speed === 1 ? 'at real speed' : `${clock.speed}× real speed`;
  return `clock: times in UTC, on the paper world's simulated clock (${speed}; it reads ${iso(clock.now)} while the wall clock reads ${iso(clock.wallNow)})`;
}

/** The wallet's tokens; what open orders hold (deposited in the vault) is named apart, not valued twice. */
export function balancesSection(balances: BalancesJson | undefined, orders: readonly StatusOrderJson[]): string {
  if (balances === undefined) return '';
  if (balances.readAt === null) return 'balances: not read yet\n';
  const rows = balances.tokens.map((t) => [t.symbol, amount(t.amount), price(t.priceUsd), dollars(t.valueUsd)]);
  const unpriced = balances.unpriced.length > 0 ? ` (without ${balances.unpriced.join(', ')}: no price)` : '';
  const held = new Map<string, Fixed>();
  for (const o of orders) held.set(o.sells.symbol, (held.get(o.sells.symbol) ?? 0n) + (parseFixed(o.sells.remaining ?? o.sells.amount) ?? 0n));
  const inOrders =
    held.size === 0 ? '' : `; held in open orders, not counted: ${[...held].map(([symbol, units]) => `${amountText(units)} ${symbol}`).join(', ')}`;
  return (
    renderTable(['balance', 'amount', 'price', 'value'], rows, ['left', 'right', 'right', 'right']) +
    `wallet value ${dollars(balances.totalUsd)}${unpriced}, read at ${iso(balances.readAt)}${inOrders}\n`
  );
}

const LEG_WORDS: Record<StatusTriggerJson['leg'], string> = { 'take-profit': 'take-profit', 'stop-loss': 'stop loss', entry: 'entry' };

function distanceText(t: StatusTriggerJson): string {
  if (t.distancePct === null || t.move === null) return '— (no price)';
  if (t.move === 'crossed') return `${percentText(t.distancePct)} (crossed: should fill)`;
  return `${percentText(t.distancePct)} (must ${t.move})`;
}

/** One row per order, then one per further trigger: an OCO's stop under its take-profit. */
export function ordersSection(orders: readonly StatusOrderJson[]): string {
  if (orders.length === 0) return 'open orders: none\n';
  const rows: string[][] = [];
  for (const o of orders) {
    const type = `${o.family} ${o.orderType}${o.legs.length > 1 ? ` (${o.legs.length} legs)` : ''}`;
    const head = [
      o.id.slice(0, 12),
      o.strategy ?? '(adopted)',
      type,
      o.state,
      `${amount(o.sells.remaining ?? o.sells.amount)} ${o.sells.symbol}`,
      o.watched === null ? '—' : `${o.watched.symbol} ${price(o.watched.priceUsd)}`,
    ];
    const triggers = o.triggers.length > 0 ? o.triggers : [null];
    triggers.forEach((t, i) => {
      const cells = t === null ? ['—', '—'] : [`${LEG_WORDS[t.leg]} ${t.condition === 'above' ? '≥' : '≤'} ${price(t.priceUsd)}`, distanceText(t)];
      rows.push([...(i === 0 ? head : head.map(() => '')), ...cells]);
    });
  }
  return renderTable(['open order', 'strategy', 'type', 'state', 'selling', 'price now', 'trigger', 'distance'], rows, [
    'left',
    'left',
    'left',
    'left',
    'right',
    'right',
    'left',
    'left',
  ]);
}

export function protectionsSection(protections: readonly ProtectionJson[] | undefined): string {
  if (protections === undefined || protections.length === 0) return 'protections: none configured\n';
  const rows = protections.map((p) => [
    p.name,
    p.limit,
    p.figure,
    p.headroom,
    p.tripped === null
      ? 'ok'
      : `TRIPPED since ${iso(p.tripped.since)}: pauses ${p.tripped.pauses === 'all' ? 'all trading' : 'buying'}; clears ${p.tripped.clears}`,
  ]);
  return renderTable(['protection', 'limit', 'now', 'headroom', 'state'], rows, ['left', 'right', 'right', 'right', 'left']);
}

export function unrealizedSection(unrealized: UnrealizedJson | undefined): string {
  if (unrealized === undefined) return '';
  const rows = unrealized.holdings.map((h) => [
    h.preHeld ? '(held before jupbot)' : (h.strategy ?? '(adopted)'),
    h.symbol,
    amount(h.amount),
    h.basis === null ? dollars(h.costUsd) : `${dollars(h.costUsd)} (${h.basis.source === 'operator' ? 'basis set' : 'first price'} ${price(h.basis.priceUsd)})`,
    h.priceFrom === null ? '—' : `${price(h.priceUsd)}${h.priceFrom === 'history' ? ' (kept)' : ''}`,
    dollars(h.valueUsd),
    dollars(h.unrealizedUsd),
  ]);
  const unpriced = unrealized.unpriced.length > 0 ? ` (without ${unrealized.unpriced.join(', ')}: no price)` : '';
  const table =
    rows.length === 0
      ? ''
      : renderTable(['holding', 'token', 'amount', 'cost', 'price', 'value', 'unrealized'], rows, [
          'left',
          'left',
          'right',
          'right',
          'right',
          'right',
          'right',
        ]);
  return `${table}unrealized P&L ${dollars(unrealized.usd)}${unpriced} at ${iso(unrealized.at)}; basis: ${unrealized.basis}\n`;
}
