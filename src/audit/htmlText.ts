/**
 * The small pieces the report's HTML is made of: escaped text, JSON safe inside a script element,
 * tables, and figure cells that show a rounded figure and keep the exact one in `title` (on hover)
 * with `data-field` naming it for readers and tests.
 */

export function esc(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a script element: no `</script>` can close it early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Attributes from a record; undefined values are left out. */
export function attrs(values: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('');
}

export interface Column {
  readonly label: string;
  /** Figures align right. */
  readonly num?: boolean;
  /** The header's hover text: what the column means. */
  readonly hint?: string;
}

/** A table, or a line saying it is empty; each row's first element is its `<tr>` attributes. */
export function table(columns: readonly Column[], rows: readonly { readonly attrs?: string; readonly cells: readonly string[] }[], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${esc(empty)}</p>`;
  const head = columns.map((c) => `<th${attrs({ class: c.num ? 'num' : undefined, title: c.hint })}>${esc(c.label)}</th>`).join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.map((r) => `<tr${r.attrs ?? ''}>${r.cells.join('')}</tr>`).join('')}</tbody></table>`;
}

/** A text cell. */
export function cell(value: string | number | null | undefined, field?: string, className?: string): string {
  return `<td${attrs({ 'data-field': field, class: className })}>${esc(value ?? '—')}</td>`;
}

/**
 * A figure: `shown` (rounded) with the exact text on hover. `tone` colours a gain green and a loss
 * red; null shows a dash with `missing` on hover.
 */
export function figure(shown: string | null, exact: string | null, field?: string, options: { tone?: boolean; missing?: string } = {}): string {
  if (shown === null || exact === null) return `<td${attrs({ class: 'num', 'data-field': field, title: options.missing })}>—</td>`;
  const tone = options.tone ? (exact.startsWith('-') ? ' neg' : /[1-9]/.test(exact) ? ' pos' : '') : '';
  return `<td${attrs({ class: `num${tone}`, 'data-field': field, title: exact })}>${esc(shown)}</td>`;
}
