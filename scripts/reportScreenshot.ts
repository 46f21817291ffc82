/**
 * Makes docs/report.png from a real paper run: a backtest of the example strategies over the first
 * eleven days of the shipped price history (the daemon in paper mode against the simulator, the
 * same trades byte for byte every time), `jupbot report` on its database, and a screenshot of the
 * page's top in Debian's Chromium at 1,400 pixels wide (playwright-core; no browser is downloaded).
 *
 *   npx tsx scripts/reportScreenshot.ts [out.png]       (default docs/report.png)
 *
 * The backtest and the page go to one directory under the system's temporary directory, emptied
 * first and removed afterwards (`--keep` keeps it). Its path and the daemon's instance id (named
 * here rather than drawn at random) are in what the audit log records: the same every time, they
 * give the same chain head, and so the same picture.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { runCli } from '../src/cli/index.js';
import { systemClock } from '../src/clock.js';
import { INSTANCE_ID_FILE } from '../src/store/instanceId.js';

const CHROMIUM = '/usr/bin/chromium';
const STRATEGIES = ['sol-take-profit', 'sol-dca-daily', 'jup-dca-vault', 'jup-local-exits', 'btc-no-take-profit'];
/** SOL reaches the first take-profit on the 10th; on the 12th the second still waits, with its stop. */
const FROM = '2026-01-01T00:00Z';
const TO = '2026-01-12T00:00Z';
/** The page down to this many trades: the headline, the charts, open orders, holdings and the newest trades. */
const TRADES_SHOWN = 6;

async function jupbot(args: readonly string[], cwd: string): Promise<void> {
  let errors = '';
  const code = await runCli(args, { stdout: () => undefined, stderr: (text) => (errors += text), env: {}, cwd, clock: systemClock });
  if (code !== 0) throw new Error(`jupbot ${args.join(' ')} exited ${code}: ${errors}`);
}

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const out = resolve(args.find((a) => !a.startsWith('--')) ?? 'docs/report.png');
const root = process.cwd();
const dir = join(tmpdir(), 'jupbot-report-screenshot');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { mode: 0o700 });
try {
  const backtest = join(dir, 'backtest');
  mkdirSync(backtest, { mode: 0o700 });
  writeFileSync(join(backtest, INSTANCE_ID_FILE), 'report-screenshot\n', { mode: 0o600 });
  await jupbot(
    [
      'backtest',
      ...STRATEGIES.map((s) => join(root, 'strategies', `${s}.yaml`)),
      '--prices',
      join(root, 'test/fixtures/prices/30d.csv'),
      '--from',
      FROM,
      '--to',
      TO,
      '--out',
      backtest,
    ],
    root,
  );
  const page = join(dir, 'report.html');
  await jupbot(['report', '--db', join(backtest, 'jupbot-paper.sqlite'), '--out', page], root);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await tab.goto(`file://${page}`);
    // Browser-side code as text: the project compiles without the DOM's types.
    await tab.waitForFunction('window.jupbotCharts !== undefined');
    const bottom = await tab.evaluate<number>(`(() => {
      const rows = document.querySelectorAll('#trades tbody tr');
      const last = rows[Math.min(rows.length, ${TRADES_SHOWN}) - 1] || document.querySelector('#trades');
      const box = last.getBoundingClientRect();
      return Math.ceil(box.bottom + window.scrollY + 1);
    })()`);
    await tab.screenshot({ path: out, fullPage: true, clip: { x: 0, y: 0, width: 1400, height: bottom } });
  } finally {
    await browser.close();
  }
  process.stdout.write(`wrote ${out}${keep ? ` (backtest and page kept in ${dir})` : ''}\n`);
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
