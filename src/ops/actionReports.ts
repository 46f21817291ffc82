/**
 * What the operator sees of the audit log as it is written: the actions that matter to someone
 * watching `npm start` or a log aggregator become one info/warn line each (the audit log keeps the
 * full data), and trades, order changes and guard refusals become webhook notifications (`notify`).
 * Everything else (intent.signed, deposit.crafted, …) stays at debug: the database has it.
 */
import type { ActionInput } from '../store/actionRow.js';
import type { AuditLog } from '../store/audit.js';
import type { Logger } from './log.js';
import type { Notification } from './notify.js';

export interface ActionReportOptions {
  readonly audit: AuditLog;
  readonly log: Logger;
  readonly notify?: ((notification: Notification) => void) | undefined;
}

type Data = Record<string, unknown>;
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '');
const leg = (v: unknown): { mint: string; amount: string; decimals: number } | undefined => {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Data;
  return typeof o.mint === 'string' && typeof o.decimals === 'number' ? { mint: o.mint, amount: text(o.amount), decimals: o.decimals } : undefined;
};

/** Base units as a decimal string in token units: "1500000", 6 → "1.5". */
/** The rule and position of a prediction exit, from its intent id (`strategy/version/rule/position`). */
function predictionSale(intentId: string | null | undefined): { rule: string; position: string } | null {
  const parts = (intentId ?? '').split('~')[0]?.split('/') ?? [];
  if (parts.length < 4) return null;
  return { rule: parts.slice(2, -1).join('/'), position: parts[parts.length - 1] as string };
}

export function tokenUnits(amount: string, decimals: number): string {
  if (!/^\d+$/.test(amount) || decimals === 0) return amount;
  const padded = amount.padStart(decimals + 1, '0');
  const whole = padded.slice(0, -decimals);
  const frac = padded.slice(-decimals).replace(/0+$/, '');
  return frac === '' ? whole : `${whole}.${frac}`;
}

/** Starts reporting; returns the unsubscribe. */
export function reportActions(options: ActionReportOptions): () => void {
  const { log, notify } = options;
  return options.audit.appended.on('action', ({ id, input }) => report(id, input));

  function report(id: number, action: ActionInput): void {
    const data = (action.data ?? {}) as Data;
    const base = { action: id, kind: action.kind, strategy: action.strategy ?? undefined, intentId: action.intentId ?? undefined };
    switch (action.kind) {
      case 'intent.planned':
        log.info(base, `intent planned: ${text(data.reason) || text(data.kind)}`);
        return;
      case 'intent.confirmed':
        log.info(base, 'intent confirmed');
        return;
      case 'intent.failed':
      case 'intent.cancelled':
        log.warn(
          { ...base, code: data.code },
          `${action.kind === 'intent.failed' ? 'intent failed' : 'intent cancelled'}: ${text(data.message) || text(data.code)}`,
        );
        return;
      case 'strategy.armed':
        log.info(base, `armed generation ${text(data.generation)}: reference $${text(data.referencePriceUsd)}, amount ${text(data.armedAmount)} base units`);
        return;
      case 'order.placed':
      case 'order.cancelled':
      case 'order.expired':
      case 'order.completed':
      case 'order.adopted': {
        const verb = action.kind.slice('order.'.length);
        const orderId = text(data.orderId) || text(data.id);
        log.info({ ...base, orderId }, `vault order ${verb}: ${orderId}`);
        notify?.({ type: 'order', strategy: action.strategy ?? '(adopted)', action: verb, orderId });
        return;
      }
      case 'fill': {
        const sold = leg(data.in);
        const bought = leg(data.out);
        if (!sold || !bought) return;
        const words = `${tokenUnits(sold.amount, sold.decimals)} ${sold.mint} → ${tokenUnits(bought.amount, bought.decimals)} ${bought.mint}`;
        log.info({ ...base, signature: action.signature ?? undefined, source: data.source }, `fill (${text(data.source)}): ${words}`);
        const sale = data.source === 'prediction' ? predictionSale(action.intentId) : null;
        if (sale) {
          // A prediction position sold (or claimed): the rule that fired and the proceeds.
          notify?.({
            type: 'sell',
            strategy: action.strategy ?? '(adopted)',
            position: sale.position,
            rule: sale.rule,
            contracts: tokenUnits(sold.amount, sold.decimals),
            proceedsMicroUsd: bought.amount,
            signature: action.signature ?? undefined,
          });
          return;
        }
        notify?.({
          type: 'fill',
          strategy: action.strategy ?? '(adopted)',
          orderKind: text(data.source),
          sold: { mint: sold.mint, amount: tokenUnits(sold.amount, sold.decimals) },
          bought: { mint: bought.mint, amount: tokenUnits(bought.amount, bought.decimals) },
          signature: action.signature ?? undefined,
        });
        return;
      }
      case 'guard.refused':
        // The guarded signer logs the refusal itself, with its message.
        notify?.({ type: 'guard_refusal', strategy: action.strategy ?? undefined, code: text(data.reason) || 'GUARD_REFUSED', reason: text(data.reason) });
        return;
      default:
        log.debug(base, action.kind);
    }
  }
}
