/**
 * docs/operations.md's table of error codes, rendered from the error catalogue so the two cannot
 * drift: `npm run docs:errors` rewrites the table between its markers; a test fails while they differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Area, ERROR_CATALOGUE, type ErrorCode, type ErrorSpec } from '../src/errorCatalogue.js';

export const START = '<!-- error codes: rendered from src/errorCatalogue.ts by `npm run docs:errors` -->';
export const END = '<!-- end of error codes -->';

const AREAS: Readonly<Record<Area, string>> = {
  config: 'Configuration',
  start: 'Start (resources and preflight)',
  store: 'Database',
  wallet: 'Key',
  jupiter: 'Jupiter APIs',
  session: 'Trigger login',
  rpc: 'Solana node',
  executor: 'Executor (intents)',
  guard: 'Guard (the `reason` of `GUARD_REFUSED`)',
  backtest: 'Backtest',
};

/** The markdown between the markers: one table per area, in catalogue order. */
export function renderErrorTable(): string {
  const byArea = new Map<Area, [ErrorCode, ErrorSpec][]>();
  for (const [code, spec] of Object.entries(ERROR_CATALOGUE) as [ErrorCode, ErrorSpec][]) {
    const list = byArea.get(spec.area) ?? [];
    list.push([code, spec]);
    byArea.set(spec.area, list);
  }
  const sections = [...byArea].map(([area, rows]) => {
    const lines = rows.map(
      ([code, spec]) =>
        `| \`${code}\` | ${spec.meaning.replaceAll('|', '\\|')} | ${spec.retry}${spec.retryRule ? ', the rule decides again' : ''} | ${spec.exit ?? ''} |`,
    );
    return [`### ${AREAS[area]}`, '', '| code | meaning | retried | exit |', '| --- | --- | --- | --- |', ...lines].join('\n');
  });
  return sections.join('\n\n');
}

/** `doc` with the table between the markers replaced by the rendered one. */
export function withErrorTable(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the error table markers are missing: ${START} … ${END}`);
  return `${doc.slice(0, start + START.length)}\n\n${renderErrorTable()}\n\n${doc.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = new URL('../docs/operations.md', import.meta.url);
  writeFileSync(file, withErrorTable(readFileSync(file, 'utf8')));
}
