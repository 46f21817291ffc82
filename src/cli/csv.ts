/** A value a CSV field can hold; null and undefined become an empty field. */
export type CsvValue = string | number | bigint | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field as RFC 4180 writes it: quoted only when it contains a double quote, comma, CR or LF,
 * with embedded double quotes doubled. Values are written as they are (no spreadsheet-formula
 * escaping), because an export must stay byte-exact for re-verification.
 *
 * @example
 * csvField('say "hi", then go') // '"say ""hi"", then go"'
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record terminated by CRLF, as RFC 4180 prescribes. */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
