/**
 * What a notification is and what it says: the events jupbot tells its webhooks about, the config
 * category each belongs to, one line of plain text for each, and the JSON body posted to each kind
 * of webhook. Delivery (queues, timeouts, retries) is notify.ts's.
 */
import type { NotifyEvent, WebhookKind } from '../config/schema.js';
import { formatUnits } from '../money/formatUnits.js';

/** A base-unit amount or a decimal string; never a float. */
export type Amount = string | bigint;

export interface TokenAmount {
  readonly mint: string;
  readonly symbol?: string | undefined;
  /** Decimal string in token units (`"1.5"`) or base units as bigint/decimal string; rendered as given. */
  readonly amount: Amount;
}

/** Everything the daemon can notify about. `type` decides the text and the `events` category. */
export type Notification =
  | {
      readonly type: 'fill';
      readonly strategy: string;
      /** price-order, dca, swap, … */
      readonly orderKind: string;
      readonly sold: TokenAmount;
      readonly bought: TokenAmount;
      readonly orderId?: string | undefined;
      readonly signature?: string | undefined;
    }
  | {
      readonly type: 'sell';
      readonly strategy: string;
      /** The prediction position's pubkey. */
      readonly position: string;
      readonly market?: string | undefined;
      readonly contracts: Amount;
      /** Proceeds in micro-USD. */
      readonly proceedsMicroUsd?: Amount | undefined;
      /** The rule that fired. */
      readonly rule: string;
      readonly signature?: string | undefined;
    }
  | { readonly type: 'guard_refusal'; readonly strategy?: string | undefined; readonly code: string; readonly reason: string }
  | { readonly type: 'order'; readonly strategy: string; readonly action: string; readonly orderId: string; readonly detail?: string | undefined }
  | { readonly type: 'strategy'; readonly strategy: string; readonly action: 'degraded' | 'recovered'; readonly rule: string; readonly detail: string }
  | { readonly type: 'down'; readonly component: string; readonly since: number; readonly downForMs: number; readonly reason: string }
  | { readonly type: 'recovered'; readonly component: string; readonly since: number; readonly downForMs: number }
  | { readonly type: 'lifecycle'; readonly action: 'started' | 'stopped'; readonly detail?: string | undefined }
  | {
      /** An area of the Jupiter API refused the key (a scope, a region) and is off, or answers again and is on (engine/areas/). */
      readonly type: 'area';
      readonly area: string;
      readonly action: 'off' | 'on';
      /** What was refused or answered, and what that does to the strategies. */
      readonly detail: string;
    }
  | {
      /** The operator halted, paused or resumed the daemon or a strategy over its control socket (src/control/). */
      readonly type: 'control';
      readonly action: 'halt' | 'resume' | 'pause' | 'resume-strategy';
      /** What changed and who asked. */
      readonly detail: string;
    }
  | {
      /** An account-wide protection tripped (pausing what it says) or cleared (src/protections/). */
      readonly type: 'protection';
      readonly name: string;
      readonly action: 'tripped' | 'cleared';
      /** The figure against its limit, what is paused and how it clears; or who cleared it. */
      readonly detail: string;
    }
  | {
      /** Someone else trades the daemon's wallet: warned (one manual trade), or stopped (docs/operations.md). */
      readonly type: 'wallet_shared';
      readonly verdict: 'warned' | 'stopped';
      readonly wallet: string;
      /** What was seen, in a few words: the transaction or order and when. */
      readonly evidence: string;
      /** The whole message: what was seen, what happens, what to do. */
      readonly detail: string;
    };

export type NotificationType = Notification['type'];

/** Which config `events` category a notification belongs to. */
export const NOTIFY_CATEGORY: Readonly<Record<NotificationType, NotifyEvent>> = {
  fill: 'trade',
  sell: 'trade',
  guard_refusal: 'error',
  order: 'order',
  down: 'health',
  recovered: 'health',
  strategy: 'health',
  lifecycle: 'lifecycle',
  wallet_shared: 'error',
  area: 'health',
  protection: 'health',
  control: 'lifecycle',
};

const str = (a: Amount): string => (typeof a === 'bigint' ? a.toString() : a);
const token = (t: TokenAmount): string => `${str(t.amount)} ${t.symbol ?? t.mint}`;
const minutes = (ms: number): string => (ms < 60_000 ? `${Math.round(ms / 1000)}s` : `${Math.round(ms / 60_000)} min`);

/** The one-line human text of a notification (Slack `text`, Discord `content`, generic `text`). */
export function notificationText(n: Notification, source = 'jupbot'): string {
  switch (n.type) {
    case 'fill':
      return `${source}: ${n.strategy} filled (${n.orderKind}): ${token(n.sold)} → ${token(n.bought)}${n.orderId ? ` · order ${n.orderId}` : ''}${n.signature ? ` · tx ${n.signature}` : ''}`;
    case 'sell':
      return `${source}: ${n.strategy} sold position ${n.position}${n.market ? ` (${n.market})` : ''}: ${str(n.contracts)} contracts${
        n.proceedsMicroUsd === undefined ? '' : ` for ${microUsd(str(n.proceedsMicroUsd))} USD`
      } · rule ${n.rule}${n.signature ? ` · tx ${n.signature}` : ''}`;
    case 'guard_refusal':
      return `${source}: guard refused a transaction${n.strategy ? ` for ${n.strategy}` : ''}: ${n.code}: ${n.reason}`;
    case 'order':
      return `${source}: ${n.strategy} order ${n.orderId} ${n.action}${n.detail ? `: ${n.detail}` : ''}`;
    case 'down':
      return `${source}: ${n.component} is down for ${minutes(n.downForMs)} (since ${new Date(n.since).toISOString()}): ${n.reason}`;
    case 'recovered':
      return `${source}: ${n.component} recovered after ${minutes(n.downForMs)}`;
    case 'lifecycle':
      return `${source}: daemon ${n.action}${n.detail ? `: ${n.detail}` : ''}`;
    case 'strategy':
      return `${source}: ${n.strategy} ${n.action} (rule ${n.rule}): ${n.detail}`;
    case 'wallet_shared':
      return `${source}: ${n.verdict === 'stopped' ? 'STOPPED' : 'warning'}: ${n.detail}`;
    case 'control':
      return `${source}: ${n.detail}`;
    case 'protection':
      return `${source}: protection ${n.name} ${n.action === 'tripped' ? 'TRIPPED' : 'cleared'}: ${n.detail}`;
    case 'area':
      return `${source}: Jupiter API area ${n.area} is ${n.action === 'off' ? 'OFF' : 'on again'}: ${n.detail}`;
  }
}

/** Micro-USD (integer string) as a decimal USD string, exactly: "1234500" → "1.2345". */
export function microUsd(micro: string): string {
  return /^-?\d+$/.test(micro) ? formatUnits(BigInt(micro), 6) : micro;
}

/** Discord rejects `content` over 2,000 characters; Slack truncates long text itself. */
const DISCORD_MAX = 2000;

/** The JSON body posted to a webhook of `kind`. Generic: the event with its category, time and text. */
export function webhookPayload(kind: WebhookKind, n: Notification, at: number, source = 'jupbot'): Record<string, unknown> {
  const text = notificationText(n, source);
  if (kind === 'slack') return { text };
  if (kind === 'discord') return { content: text.length > DISCORD_MAX ? `${text.slice(0, DISCORD_MAX - 1)}…` : text };
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(n)) data[key] = typeof value === 'bigint' ? value.toString() : value;
  return { source, event: NOTIFY_CATEGORY[n.type], at: new Date(at).toISOString(), text, ...data };
}
