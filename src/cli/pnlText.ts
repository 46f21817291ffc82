/**
 * `jupbot audit pnl` for people: dollars to the cent, per strategy, the total and the holdings; a
 * figure that comes (in part) from the basis of units held before jupbot is marked and explained below.
 */
import type { Basis } from '../audit/heldBefore.js';
import type { Holding, PnlReport, StrategyPnl } from '../audit/pnl.js';
import { PRE_HELD_LABEL } from '../audit/pnlJson.js';
import { unitsToFixed } from '../money/decimal.js';
import { amountText, significantText, usdText } from '../money/humanFigures.js';
import { renderTable } from './table.js';

/** A figure that comes (in part) from the basis of units held before jupbot is marked with this. */
export const BASIS_MARK = '*';

/** The report for people: dollars to the cent, figures from a pre-held basis marked and explained below. */
export function pnlText(report: PnlReport): string {
  const marked = (text: string, basisCost: bigint): string => (basisCost > 0n ? `${text}${BASIS_MARK}` : text);
  const row = (name: string, s: Omit<StrategyPnl, 'strategy' | 'holdings'>): string[] => [
    name,
    String(s.trades),
    marked(usdText(s.realizedUsd), s.basisCostUsd),
    usdText(s.unrealizedUsd),
    usdText(s.feesUsd),
    usdText(s.unmatchedProceedsUsd),
  ];
  // The wallet's own holdings are all at a basis: their unrealized P&L is always marked.
  const preHeld = report.preHeld.holdings.length === 0 ? [] : [[PRE_HELD_LABEL, '—', '—', `${usdText(report.preHeld.unrealizedUsd)}${BASIS_MARK}`, '—', '—']];
  const rows = [...report.strategies.map((s) => row(s.strategy ?? '(adopted)', s)), ...preHeld, row('total', report.total)];
  let out = renderTable(['strategy', 'trades', 'realized', 'unrealized', 'fees', 'no known cost'], rows, ['left', 'right', 'right', 'right', 'right', 'right']);
  const holdings = [
    ...report.strategies.flatMap((s) => s.holdings.map((h) => holdingRow(s.strategy ?? '(adopted)', h))),
    ...report.preHeld.holdings.map((h) => holdingRow(PRE_HELD_LABEL, h)),
  ];
  if (holdings.length > 0)
    out += `\n${renderTable(['strategy', 'holding', 'amount', 'cost', 'value', 'unrealized'], holdings, ['left', 'left', 'right', 'right', 'right', 'right'])}`;
  if (report.total.basisCostUsd > 0n || report.preHeld.holdings.length > 0) {
    const bases = report.preHeld.holdings.map((h) => `${h.symbol} ${basisWords(h.basis)}`);
    out +=
      `\n${BASIS_MARK} from units the wallet held before jupbot traded them, at their basis (jupbot audit basis): ` +
      `${usdText(report.total.basisCostUsd)} of cost taken by sales and swaps${bases.length > 0 ? `; still held: ${bases.join(', ')}` : ''}\n`;
  }
  return out;

  function holdingRow(owner: string, h: Holding): string[] {
    return [
      owner,
      h.symbol,
      amountText(unitsToFixed(h.units, h.decimals)),
      marked(usdText(h.costUsd), h.basisCostUsd),
      usdText(h.valueUsd),
      usdText(h.unrealizedUsd),
    ];
  }
}

/** "at $0.04 (first price seen 2026-01-01T00:00:00Z)". */
function basisWords(basis: Basis | null): string {
  if (basis === null) return '';
  const source = basis.source === 'operator' ? 'set by operator' : 'first price seen';
  return `at $${significantText(basis.priceUsd)} (${source} ${new Date(basis.at).toISOString().replace('.000Z', 'Z')})`;
}
