/**
 * The daemon's typed events, as tests and embedders await them: what happened to intents, orders,
 * fills and feeds, taken from the audit log as it is written (so an event is never announced for
 * something that was not recorded), plus the daemon's own start and stop.
 */
import type { AuditLog } from './store/audit.js';
import type { TypedEmitter } from './typedEmitter.js';

export interface DaemonEvents {
  started: {
    database: string;
    opsUrl: string;
    schemaVersion: number;
    migrationsApplied: readonly number[];
    /** Paper mode: where the embedded simulator answers, and the seed that replays it. */
    simulator: { url: string; seed: string } | null;
  };
  stopped: { reason: string };
  /** An intent entered `state` (planned, signed, sent, confirmed, failed, cancelled, expired). */
  intent: { readonly id: string; readonly strategy: string | null; readonly state: string; readonly code: string | null };
  /** A vault order of ours (or an adopted one) was placed, cancelled, expired, completed or adopted. */
  order: { readonly orderId: string; readonly strategy: string | null; readonly action: string };
  /** A fill was recorded once (source swap, trigger, dca or prediction). */
  fill: { readonly signature: string | null; readonly strategy: string | null; readonly intentId: string | null; readonly source: string };
  /** A prediction position was (partly) sold or claimed: a prediction fill. */
  positionSold: { readonly signature: string | null; readonly strategy: string | null; readonly intentId: string | null };
  /** A feed's poll started failing (once per outage; `feed.failed`). */
  feedError: { readonly feed: string; readonly code: string; readonly message: string };
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Forwards the audit log's actions as daemon events; returns the unsubscribe. */
export function forwardActions(audit: AuditLog, events: TypedEmitter<DaemonEvents>): () => void {
  return audit.appended.on('action', ({ input }) => {
    const data = (input.data ?? {}) as Record<string, unknown>;
    const strategy = input.strategy ?? null;
    const intentId = input.intentId ?? null;
    if (input.kind === 'intent.planned') events.emit('intent', { id: intentId ?? '', strategy, state: 'planned', code: null });
    else if (input.kind.startsWith('intent.') && typeof data.to === 'string' && data.to !== data.from) {
      events.emit('intent', { id: intentId ?? '', strategy, state: data.to, code: text(data.code) });
    } else if (input.kind.startsWith('order.') && input.kind !== 'order.id') {
      events.emit('order', { orderId: text(data.orderId) ?? '', strategy, action: input.kind.slice('order.'.length) });
    } else if (input.kind === 'fill') {
      const source = text(data.source) ?? 'unknown';
      events.emit('fill', { signature: input.signature ?? null, strategy, intentId, source });
      if (source === 'prediction') events.emit('positionSold', { signature: input.signature ?? null, strategy, intentId });
    } else if (input.kind === 'feed.failed') {
      events.emit('feedError', { feed: text(data.feed) ?? '', code: text(data.code) ?? '', message: text(data.message) ?? '' });
    }
  });
}
