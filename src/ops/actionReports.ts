/**
 * What the operator sees of the audit log as it is written: the actions that matter to someone
 * watching `npm start` or a log aggregator become one info/warn line each (the audit log keeps the
 * full data), and trades, order changes and guard refusals become webhook notifications (`notify`).
 * Everything else (intent.signed, deposit.crafted, …) stays at debug: the database has it.
 */
import type { ActionInput } from '../store/actionRow.js';
import type { AuditLog } from '../store/audit.js';
import type { Logger } from './log.js';
import type { Notification } from './notification.js';
import { formatDuration } from '../config/duration.js';
import { MAX_RETRIES, retryDelay, retryNumber, SLOW_RETRY_MS, withoutRetry } from '../engine/executor/attempts.js';
import { retriesRule } from '../errorCatalogue.js';
import { tokenNamer, USD_MINTS, type TokenNamer } from '../audit/tokenNames.js';
import { humanAmount, humanUsd, tokenUnits } from '../money/humanNumbers.js';

export interface ActionReportOptions {
  readonly audit: AuditLog;
  readonly log: Logger;
  readonly notify?: ((notification: Notification) => void) | undefined;
  /** A mint's symbol for the message (the strategies' tokens, the price feed); default: the well-known ones, else the mint shortened. */
  readonly tokenName?: TokenNamer | undefined;
}

type Data = Record<string, unknown>;
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '');
const leg = (v: unknown): { mint: string; amount: string; decimals: number } | undefined => {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Data;
  return typeof o.mint === 'string' && typeof o.decimals === 'number' ? { mint: o.mint, amount: text(o.amount), decimals: o.decimals } : undefined;
};

/** The parts of an intent id (`strategy/version/rule[/…]`), a retry's `~rN` dropped. */
const idParts = (intentId: string | null | undefined): string[] => withoutRetry(intentId ?? '').split('/');

/** The rule and position of a prediction exit, from its intent id (`strategy/version/rule/position`). */
function predictionSale(intentId: string | null | undefined): { rule: string; position: string } | null {
  const parts = idParts(intentId);
  if (parts.length < 4) return null;
  return { rule: parts.slice(2, -1).join('/'), position: parts[parts.length - 1] as string };
}

/** The rule an intent id names (`strategy/version/rule[/…]`), if it has that shape. */
function ruleOf(intentId: string | null | undefined): string | null {
  const parts = idParts(intentId);
  return parts.length >= 3 ? `rule ${parts[2] ?? ''}` : null;
}

const SOURCES: Readonly<Record<string, string>> = { swap: 'swap', trigger: 'vault order', dca: 'DCA order', prediction: 'prediction market' };

/** Starts reporting; returns the unsubscribe. */
export function reportActions(options: ActionReportOptions): () => void {
  const { log, notify } = options;
  const name = options.tokenName ?? tokenNamer(new Map());
  return options.audit.appended.on('action', ({ id, input }) => report(id, input));

  function report(id: number, action: ActionInput): void {
    const data = (action.data ?? {}) as Data;
    const base = { action: id, kind: action.kind, strategy: action.strategy ?? undefined, intentId: action.intentId ?? undefined };
    // Every line a person reads starts with whose it is.
    const who = action.strategy ?? 'adopted order';
    switch (action.kind) {
      case 'intent.planned':
        log.info(base, `${who}: planned ${text(data.kind)}: ${text(data.reason) || 'no reason given'}`);
        return;
      case 'intent.confirmed':
        log.info(base, `${who}: ${ruleOf(action.intentId) ?? 'intent'} confirmed${action.signature ? `, transaction ${action.signature}` : ''}`);
        return;
      case 'intent.failed':
      case 'intent.cancelled': {
        const what = `${who}: ${action.kind === 'intent.failed' ? 'intent failed' : 'intent cancelled'}`;
        const code = text(data.code);
        log.warn(
          { ...base, code: data.code },
          `${what}${code ? ` (${code})` : ''}: ${text(data.message) || code || 'no reason recorded'}; ${afterFailure(code, action.intentId)}`,
        );
        return;
      }
      case 'strategy.armed':
        log.info(base, `${who}: armed generation ${text(data.generation)}: ${armedWords(data, name)}`);
        return;
      case 'order.placed':
      case 'order.cancelled':
      case 'order.expired':
      case 'order.completed':
      case 'order.adopted': {
        const verb = action.kind.slice('order.'.length);
        const orderId = text(data.orderId) || text(data.id);
        log.info({ ...base, orderId }, `${who}: vault order ${verb} (${orderId})`);
        notify?.({ type: 'order', strategy: action.strategy ?? '(adopted)', action: verb, orderId });
        return;
      }
      case 'order.gone': {
        const orderId = text(data.orderId);
        const funds = goneFundsWords(data, name);
        log.warn(
          { ...base, orderId, missedReads: data.missedReads, vaultFunds: data.vaultFunds },
          `${who}: vault order ${orderId} is gone: the Trigger API no longer lists it (missing from ${text(data.missedReads)} order reads in a row and from a complete read of its history). ` +
            `No cancel or PATCH is tried on it any more; the rule that placed it sees it ended and places a new order if what it protected is still held. ${funds}`,
        );
        notify?.({ type: 'order', strategy: action.strategy ?? '(adopted)', action: 'gone', orderId, detail: funds });
        return;
      }
      case 'fill': {
        const sold = leg(data.in);
        const bought = leg(data.out);
        if (!sold || !bought) return;
        const source = text(data.source);
        const sale = source === 'prediction' ? predictionSale(action.intentId) : null;
        const how = `${SOURCES[source] ?? source}${sale ? `, rule ${sale.rule}` : ''}`;
        log.info(
          { ...base, signature: action.signature ?? undefined, source, in: sold, out: bought },
          `${who}: ${fillWords({ ...sold, symbol: name(sold.mint) }, { ...bought, symbol: name(bought.mint) })} (${how})`,
        );
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
          orderKind: source,
          sold: { mint: sold.mint, symbol: name(sold.mint), amount: tokenUnits(sold.amount, sold.decimals) },
          bought: { mint: bought.mint, symbol: name(bought.mint), amount: tokenUnits(bought.amount, bought.decimals) },
          signature: action.signature ?? undefined,
        });
        return;
      }
      case 'strategy.degraded': {
        const rule = text(data.rule);
        const next = typeof data.nextTryAt === 'number' ? ` at ${new Date(data.nextTryAt).toISOString()}` : '';
        const detail = `${text(data.failures)} attempts in a row failed (last: ${text(data.code) || 'no code'}); ${
          data.protective === true
            ? `the rule protects a position and keeps trying${next}, every ${formatDuration(SLOW_RETRY_MS)} at the slowest`
            : data.final === true
              ? 'the rule has used its retries and stays failed until it fires again'
              : `the rule tries again${next}`
        }`;
        log.warn({ ...base, rule, failures: data.failures, code: data.code }, `${who}: degraded: rule ${rule}: ${detail}`);
        notify?.({ type: 'strategy', strategy: who, action: 'degraded', rule, detail });
        return;
      }
      case 'strategy.recovered': {
        const rule = text(data.rule);
        const detail = `${text(data.reason)} after ${text(data.failures)} failed attempts`;
        log.info({ ...base, rule }, `${who}: recovered: rule ${rule}: ${detail}`);
        notify?.({ type: 'strategy', strategy: who, action: 'recovered', rule, detail });
        return;
      }
      case 'wallet.foreign_activity': {
        // Someone else trades the wallet (engine/sharing/walletSharing.ts): the message says what was seen and what to do.
        const stopped = data.verdict === 'stopped';
        const message = text(data.message);
        log[stopped ? 'error' : 'warn']({ ...base, signature: action.signature ?? undefined, verdict: data.verdict, evidence: data.evidence }, message);
        notify?.({ type: 'wallet_shared', verdict: stopped ? 'stopped' : 'warned', wallet: text(data.wallet), evidence: text(data.summary), detail: message });
        return;
      }
      case 'area.off': {
        // engine/areas/areaAccess.ts: recorded once per time the area turns off, so said once here.
        const strategies = Array.isArray(data.strategies) ? data.strategies.map(text) : [];
        const message = text(data.message);
        const detail =
          `${text(data.call)} answered ${text(data.status)}${message ? ` "${message}"` : ''}: this API key (or this region) may not use ${text(data.area)}. ` +
          `${strategies.length > 0 ? `Paused until it answers: ${strategies.join(', ')}` : 'No loaded strategy needs it now'}; the rest trade. ` +
          `Asked again every ${typeof data.retryMs === 'number' ? formatDuration(data.retryMs) : '?'}; give the key access to it, or remove the strategies that need it`;
        log.warn({ ...base, area: data.area, call: data.call, status: data.status, strategies }, `Jupiter API area ${text(data.area)} is off: ${detail}`);
        notify?.({ type: 'area', area: text(data.area), action: 'off', detail });
        return;
      }
      case 'area.on': {
        const detail = `${text(data.call)} answered after ${typeof data.offForMs === 'number' ? formatDuration(Math.max(0, Math.round(data.offForMs))) : '?'} off; its feeds and strategies resume`;
        log.info({ ...base, area: data.area, call: data.call }, `Jupiter API area ${text(data.area)} is on again: ${detail}`);
        notify?.({ type: 'area', area: text(data.area), action: 'on', detail });
        return;
      }
      case 'guard.refused':
        // The guarded signer logs the refusal itself, with its message.
        notify?.({ type: 'guard_refusal', strategy: action.strategy ?? undefined, code: text(data.reason) || 'GUARD_REFUSED', reason: text(data.reason) });
        return;
      case 'wallet.balances':
      case 'basis.observed':
      case 'basis.set':
        // Records kept for the auditor (what the wallet holds, the cost of what it held before jupbot):
        // routine, written at every change of a balance, never worth an operator's attention.
        log.debug(base, action.kind);
        return;
      default:
        log.debug(base, action.kind);
    }
  }
}

interface NamedLeg {
  readonly mint: string;
  readonly symbol: string;
  readonly amount: string;
  readonly decimals: number;
}

/**
 * A fill in words, priced in dollars when one side is a USD stablecoin (or a prediction contract,
 * paid in USDC): "sold 2.5 SOL for 449.37 USDC at $179.75 per SOL".
 */
export function fillWords(sold: NamedLeg, bought: NamedLeg): string {
  const amount = (l: NamedLeg): string => `${humanAmount(l.amount, l.decimals, { usd: USD_MINTS.has(l.mint) })} ${l.symbol}`;
  const units = (l: NamedLeg): number => Number(tokenUnits(l.amount, l.decimals));
  const per = (usd: NamedLeg, token: NamedLeg): string => {
    const n = units(token);
    return n > 0 ? ` at ${humanUsd(units(usd) / n)} per ${token.mint.startsWith('prediction:') ? 'contract' : token.symbol}` : '';
  };
  if (USD_MINTS.has(sold.mint) && !USD_MINTS.has(bought.mint)) return `bought ${amount(bought)} for ${amount(sold)}${per(sold, bought)}`;
  if (USD_MINTS.has(bought.mint)) return `sold ${amount(sold)} for ${amount(bought)}${per(bought, sold)}`;
  return `swapped ${amount(sold)} for ${amount(bought)}`;
}

/** The armed amount and reference price; rows written before the token was recorded keep base units. */
function armedWords(data: Data, name: TokenNamer): string {
  const mint = text(data.mint);
  const decimals = typeof data.decimals === 'number' ? data.decimals : null;
  const amount = text(data.armedAmount);
  const held = mint && decimals !== null ? `${humanAmount(amount, decimals)} ${name(mint)}` : `${amount} base units`;
  return `${held} at reference price ${humanUsd(text(data.referencePriceUsd))}`;
}

/** Whether a gone order's deposit may be stranded in the vault, from its `order.gone` action (vaultFunds.ts). */
export function goneFundsWords(data: Data, name: TokenNamer): string {
  const funds = (typeof data.vaultFunds === 'object' && data.vaultFunds !== null ? data.vaultFunds : {}) as Data;
  const mint = text(funds.mint) || text(data.inputMint);
  const decimals = typeof data.inputDecimals === 'number' ? data.inputDecimals : null;
  const amount = (units: string): string =>
    decimals === null ? `${units} base units of ${name(mint)}` : `${humanAmount(units, decimals)} ${name(mint)} (${units} base units)`;
  const remaining = text(data.remaining);
  const held = remaining ? amount(remaining) : `the order's ${name(mint)}`;
  const had = remaining ? `the order held ${held}` : 'what the order held is not recorded';
  switch (funds.kind) {
    case 'held':
      return text(funds.amount) === '0'
        ? `The vault ${text(funds.vault)} holds no ${name(mint)}: nothing of it is stranded there (${had}).`
        : `Stranded funds: the vault ${text(funds.vault)} still holds ${amount(text(funds.amount))}; ${had}. Without the order only Jupiter can return them: check the vault in Jupiter's interface or ask Jupiter's support.`;
    case 'no-vault':
      return `The Trigger API knows no vault for this wallet any more: whether ${held} is stranded cannot be checked through it; look up the vault on chain.`;
    default:
      return `Whether funds are stranded in the vault could not be checked (${text(funds.reason) || 'no answer'}); ${had}.`;
  }
}

/** What follows a failed or cancelled intent, in the words of the retry rules (src/engine/executor/attempts.ts). */
/**
 * What follows a failed intent, in words. An exit rule (a price order, a prediction exit) is never
 * disarmed: while it still fires it tries again, with backoff. A DCA run retries the codes where a
 * later try may succeed, a few times.
 */
function afterFailure(code: string, intentId: string | null | undefined): string {
  const n = retryNumber(intentId ?? '');
  const wait = formatDuration(retryDelay(n + 1));
  const exits = `an exit rule that still fires tries again in ${wait}`;
  if (!code || !retriesRule(code)) return `a DCA run is not retried (it would fail the same way); ${exits}`;
  if (n >= MAX_RETRIES) return `a DCA run has used its ${MAX_RETRIES} retries; ${exits}`;
  return `the rule tries again as a new intent in ${wait} if it still fires (a DCA run: retry ${n + 1} of ${MAX_RETRIES})`;
}
