/**
 * The report in a real browser: Debian's Chromium, headless, driven by playwright-core (no browser
 * is downloaded). The page opens with no network and no console error, its charts draw their data
 * points, its figures equal `jupbot audit pnl --json`, and a broken chain is on the first screen.
 * Without /usr/bin/chromium these tests are skipped, and say so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { CliExit, type CliContext } from '../../src/cli/context.js';
import { reportCommand } from '../../src/cli/report.js';
import { reportData } from '../../src/audit/reportData.js';
import { renderReport } from '../../src/audit/reportHtml.js';
import { startOpsServer } from '../../src/ops/opsServer.js';
import { openDatabase } from '../../src/store/db.js';
import { exampleDatabase } from '../unit/audit/exampleDatabase.js';
import { audit, START } from '../unit/cli/auditHarness.js';
import { tempDir } from '../unit/store/helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) process.stderr.write(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);

/** Runs `jupbot report` in-process; returns its exit code and output. */
async function report(db: string, out: string): Promise<{ code: number; stdout: string; message: string }> {
  let stdout = '';
  const ctx: CliContext = { stdout: (t) => (stdout += t), stderr: () => undefined, env: {}, cwd: '/', clock: new ManualClock(START + 3_600_000) };
  const program = new Command('jupbot').exitOverride().addCommand(reportCommand(ctx, ({ db: file }) => Promise.resolve(file ?? '')).exitOverride());
  try {
    await program.parseAsync(['report', '--db', db, '--out', out], { from: 'user' });
    return { code: 0, stdout, message: '' };
  } catch (error) {
    if (error instanceof CliExit) return { code: error.exitCode, stdout, message: error.message };
    if (error instanceof CommanderError) return { code: 2, stdout, message: error.message };
    throw error;
  }
}

describe.skipIf(!present)('the HTML report in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function open(file: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${file}`);
    // Browser-side code as text: the project compiles without the DOM's types.
    await page.waitForFunction('window.jupbotCharts && window.jupbotCharts.length === 2');
    return { page, errors, requests };
  }

  it('draws its charts with no error and no network, and shows the figures of `audit pnl --json`', async () => {
    const db = exampleDatabase();
    const out = join(tempDir(), 'report.html');
    const run = await report(db, out);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/report written to .*report\.html: 6 trades, audit chain and sealed tables verified/);
    const { page, errors, requests } = await open(out);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);

    const charts = await page.evaluate<unknown>('window.jupbotCharts');
    // Realized P&L: sol-tp sold twice, nba-exit once. Prices: five fills with a dollar leg.
    expect(charts).toEqual([
      { id: 'realized-chart', points: 3, series: 2, drawn: 3 },
      { id: 'price-chart', points: 5, series: 3, drawn: 5 },
    ]);
    expect(await page.locator('#realized-chart canvas').count()).toBe(1);

    const pnl = JSON.parse((await audit(['--db', db, 'pnl', '--json'])).stdout) as { total: Record<string, unknown>; strategies: Record<string, unknown>[] };
    const field = async (name: string): Promise<string> => (await page.locator(`[data-field="${name}"]`).textContent()) ?? '';
    for (const key of ['realizedUsd', 'unrealizedUsd', 'feesUsd', 'unmatchedProceedsUsd']) {
      expect(await field(`total.${key}`)).toBe(String(pnl.total[key]));
      for (const s of pnl.strategies) expect(await field(`${String(s.strategy)}.${key}`)).toBe(String(s[key]));
    }
    expect(await page.locator('#chain').getAttribute('class')).toBe('chain-ok');
    await page.close();
  }, 60_000);

  it('puts a broken chain on its first screen, in red, and exits 3', async () => {
    const db = exampleDatabase();
    const handle = openDatabase(db);
    handle.exec("DROP TRIGGER actions_no_update; UPDATE actions SET amount = '1' WHERE id = 2;");
    handle.close();
    const out = join(tempDir(), 'broken.html');
    const run = await report(db, out);
    expect(run.code).toBe(3);
    expect(run.message).toMatch(/NOT VERIFIED: audit chain broken at action 2/);
    expect(readFileSync(out, 'utf8')).toContain('NOT VERIFIED: audit chain broken at action 2');
    const { page, errors } = await open(out);
    expect(errors).toEqual([]);
    const banner = page.locator('#chain.chain-broken');
    expect(await banner.isVisible()).toBe(true);
    const box = await banner.boundingBox();
    expect(box?.y ?? Infinity).toBeLessThan(800);
    expect(await page.evaluate("getComputedStyle(document.querySelector('#chain')).color")).toBe('rgb(165, 14, 14)');
    await page.close();
  }, 60_000);
});

describe.skipIf(!present)('the live report on the ops server, in headless Chromium', () => {
  it('serves the same page at /, drawing its charts under its own content policy', async () => {
    const db = exampleDatabase();
    const handle = openDatabase(db, { readonly: true });
    const ops = await startOpsServer({
      listen: { host: '127.0.0.1', port: 0 },
      clock: new ManualClock(START),
      checks: [],
      pages: { '/': () => renderReport(reportData(handle, START), { refreshSeconds: 30 }) },
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${ops.url}/`);
      await page.waitForFunction('window.jupbotCharts && window.jupbotCharts.length === 2');
      expect(errors).toEqual([]);
      expect(await page.evaluate<unknown>('window.jupbotCharts.map((c) => c.points)')).toEqual([3, 5]);
      expect(await page.locator('[data-field="total.realizedUsd"]').textContent()).toBe('49');
    } finally {
      await browser.close();
      await ops.close();
      handle.close();
    }
  }, 60_000);
});
