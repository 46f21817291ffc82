/**
 * The top-level keys whose value differs between two versions of a strategy: the diff recorded
 * with every applied version ("risk, take_profit"), so the audit log says what an edit changed.
 */
export function specChanges(before: object, after: object): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((key) => stable(a[key]) !== stable(b[key]));
}

function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? 'undefined';
}
