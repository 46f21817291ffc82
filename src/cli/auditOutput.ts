import type { ActionRecord } from '../store/audit.js';
import { csvRecord, type CsvValue } from './csv.js';
import { renderTable } from './table.js';
import { formatUnits } from '../money/formatUnits.js';

/** The stored columns of an action, in table order: what exports carry, exactly as stored. */
export const ACTION_COLUMNS = ['id', 'at', 'kind', 'strategy', 'intent_id', 'mint', 'amount', 'decimals', 'signature', 'data', 'prev_hash', 'hash'] as const;

type Column = (typeof ACTION_COLUMNS)[number];
/** An action as a row of stored values (amount as its base-unit string, data as its JSON text). */
export type StoredAction = Readonly<Record<Column, unknown>>;

/** UTC ISO-8601 with milliseconds, e.g. 2026-01-01T00:00:00.000Z. */
export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** An {@link ActionRecord} back in its stored form. */
export function storedAction(record: ActionRecord): StoredAction {
  return {
    id: record.id,
    at: record.at,
    kind: record.kind,
    strategy: record.strategy,
    intent_id: record.intentId,
    mint: record.mint,
    amount: record.amount === null ? null : record.amount.toString(),
    decimals: record.decimals,
    signature: record.signature,
    data: record.data,
    prev_hash: record.prevHash,
    hash: record.hash,
  };
}

/** The CSV header: stored columns, with a readable `at_iso` next to `at`. */
export function actionCsvHeader(): string {
  return csvRecord(['id', 'at', 'at_iso', ...ACTION_COLUMNS.slice(2)]);
}

/** One action as a CSV record matching {@link actionCsvHeader}. */
export function actionCsvRow(row: StoredAction): string {
  const at = typeof row.at === 'number' ? isoTime(row.at) : '';
  return csvRecord([row.id, row.at, at, ...ACTION_COLUMNS.slice(2).map((column) => row[column])] as CsvValue[]);
}

/**
 * One action for `audit actions --json`: stored columns plus `at_iso`, with `data` parsed into
 * an object for jq and scripts. (`audit export` keeps `data` as its exact stored text.)
 */
export function actionJson(record: ActionRecord): Record<string, unknown> {
  const stored = storedAction(record);
  return { ...stored, at_iso: isoTime(record.at), data: JSON.parse(record.data) as unknown };
}

function shorten(text: string | null, keep = 4): string {
  if (text === null) return '-';
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A terminal table of actions: amounts in tokens, long ids shortened, data clipped (use --json for all of it). */
export function actionsTable(records: readonly ActionRecord[]): string {
  const rows = records.map((r) => [
    String(r.id),
    isoTime(r.at).replace('.000Z', 'Z'),
    r.kind,
    r.strategy ?? '-',
    r.amount === null || r.decimals === null ? '-' : formatUnits(r.amount, r.decimals),
    shorten(r.mint),
    r.intentId === null ? '-' : clip(r.intentId, 24),
    shorten(r.signature, 6),
    clip(r.data, 60),
  ]);
  return renderTable(['ID', 'AT (UTC)', 'KIND', 'STRATEGY', 'AMOUNT', 'MINT', 'INTENT', 'SIGNATURE', 'DATA'], rows, ['right', 'left', 'left', 'left', 'right']);
}
