/**
 * One action of the audit log in plain words, for the report's timeline: what happened, with the
 * figures that matter rounded for reading (the log itself holds every field, exactly). A kind this
 * report does not know reads as its name.
 */
import type { ActionRecord } from '../store/actionQueries.js';
import { parseFixedRounded, unitsToFixed } from '../money/decimal.js';
import { amountText, priceText } from './figureText.js';
import { type TokenNamer, USD_MINTS } from './tokenNames.js';

type Data = Record<string, unknown>;

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

/** "2.5 SOL" from a `{ mint, amount, decimals }` leg of the log; empty when it is not one. */
function legWords(v: unknown, name: TokenNamer): string {
  if (typeof v !== 'object' || v === null) return '';
  const { mint, amount, decimals } = v as Data;
  if (typeof mint !== 'string' || typeof amount !== 'string' || !/^\d+$/.test(amount) || typeof decimals !== 'number') return '';
  return `${amountText(unitsToFixed(BigInt(amount), decimals), { cents: USD_MINTS.has(mint) })} ${name(mint)}`;
}

function dollars(v: unknown): string {
  const value = typeof v === 'string' ? parseFixedRounded(v) : undefined;
  return value === undefined ? text(v) : priceText(value);
}

const failure = (data: Data): string => [text(data.code), text(data.message)].filter((s) => s !== '').join(': ') || 'no reason recorded';

/** Kinds whose words need nothing from their data. */
const PLAIN: Readonly<Record<string, string>> = {
  'intent.sent': 'transaction sent',
  'intent.confirmed': 'landed: confirmed on chain',
  'intent.rearmed': 'expired unlanded: planned again',
  'intent.resent': 'the same transaction sent again',
  'deposit.crafted': 'vault deposit built',
  'cancel.requested': 'vault order cancel asked',
  'prediction.built': 'prediction order built',
  'order.id': 'vault order id learned',
  'fill.recovered': 'a pending fill was found',
  'rehearsal.opened': 'rehearsal ledger opened',
  'strategy.removed': 'strategy removed',
};

export function actionWords(action: ActionRecord, name: TokenNamer): string {
  const data = JSON.parse(action.data) as Data;
  const plain = PLAIN[action.kind];
  if (plain !== undefined) return plain;
  switch (action.kind) {
    case 'daemon.started':
      return `daemon started${data.mode ? ` in ${text(data.mode)} mode` : ''}${data.version ? `, version ${text(data.version)}` : ''}`;
    case 'daemon.stopped':
      return `daemon stopped${data.reason ? `: ${text(data.reason)}` : ''}`;
    case 'strategy.version':
      return `strategy loaded, version ${text(data.version)}`;
    case 'strategy.armed': {
      const held =
        typeof data.decimals === 'number' && typeof data.mint === 'string'
          ? legWords({ mint: data.mint, amount: data.armedAmount, decimals: data.decimals }, name)
          : '';
      return `armed${held ? ` on ${held}` : ''} at reference price ${dollars(data.referencePriceUsd)}`;
    }
    case 'strategy.degraded':
      return `degraded: rule ${text(data.rule)} failed ${text(data.failures)} times in a row (${text(data.code) || 'no code'})`;
    case 'strategy.recovered':
      return `recovered: rule ${text(data.rule)}`;
    case 'strategy.rejected':
      return 'strategy file rejected';
    case 'intent.planned':
      return `planned ${text(data.kind)}: ${text(data.reason) || 'no reason given'}`;
    case 'intent.signed':
      return `transaction signed (attempt ${text(data.attempt) || '?'})`;
    case 'intent.failed':
      return `failed: ${failure(data)}`;
    case 'intent.cancelled':
      return `cancelled: ${failure(data)}`;
    case 'intent.expired':
      return 'expired: its transaction can no longer land';
    case 'intent.waiting':
      return `waiting: ${failure(data)}`;
    case 'intent.error':
    case 'intent.rejected':
    case 'intent.outcome_unknown':
      return `${action.kind.slice('intent.'.length).replace('_', ' ')}: ${failure(data)}`;
    case 'intent.rekinded':
      return `journaled as ${text(data.from)}, now ${text(data.to)} (an upgrade)${data.notSealed ? `: not sealed again, ${text(data.notSealed)}` : ''}`;
    case 'intent.deferred':
      return `not acted on: ${text(data.reason) || failure(data)}`;
    case 'fill': {
      const gave = legWords(data.in, name);
      const got = legWords(data.out, name);
      return gave && got ? `filled: ${gave} for ${got}` : 'filled';
    }
    case 'order.placed':
    case 'order.cancelled':
    case 'order.expired':
    case 'order.completed':
    case 'order.adopted':
    case 'order.gone':
    case 'order.updated':
      return `vault order ${action.kind.slice('order.'.length)}${data.orderId ? ` (${text(data.orderId)})` : ''}`;
    case 'guard.refused':
      return `guard refused to sign: ${text(data.reason) || 'no reason recorded'}`;
    case 'reconcile.pass':
      return `reconciled ${text(data.examined)} pending intent(s), ${text(data.stillPending)} still pending`;
    case 'wallet.balances':
      return `wallet balances read: ${Array.isArray(data.balances) ? data.balances.length : 0} token(s) held`;
    case 'wallet.foreign_activity':
      return `another trader on the wallet: ${text(data.summary)}`;
    case 'area.off':
      return `Jupiter API area ${text(data.area)} refused the key (${text(data.status)})`;
    case 'area.on':
      return `Jupiter API area ${text(data.area)} answers again`;
    case 'feed.failed':
    case 'feed.recovered':
      return `${text(data.feed) || 'a feed'} ${action.kind === 'feed.failed' ? 'failed' : 'recovered'}`;
    case 'rehearsal.transaction':
      return `rehearsed transaction ${text(data.verdict)}${data.reason ? `: ${text(data.reason)}` : ''}`;
    default:
      return action.kind.replace(/[._]/g, ' ');
  }
}
