/** Column alignment in {@link renderTable}. */
export type Align = 'left' | 'right';

/**
 * A plain-text table for a terminal: a header row, then one line per row, columns separated by
 * two spaces and padded to the widest cell. Cells must not contain line breaks (callers shorten
 * or escape them). Trailing spaces are trimmed.
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[] = []): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    widths
      .map((width, column) => {
        const cell = cells[column] ?? '';
        return align[column] === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}
