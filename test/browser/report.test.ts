/**
 * The report in a real browser: Debian's Chromium, headless, driven by playwright-core (no browser
 * is downloaded), at 1,400 pixels wide. The page opens with no network and no console error, draws
 * the equity curve and a price chart per token, and shows the figures of `jupbot audit pnl --json`
 * and `jupbot audit trades --json` on the same database (exact, on hover), each trade with its
 * reason and each open order with its distances; a broken chain is the first thing on it.
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
import { NOW, reportDatabase } from '../unit/audit/reportDatabase.js';
import { audit } from '../unit/cli/auditHarness.js';
import { tempDir } from '../unit/store/helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) process.stderr.write(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Runs `jupbot report` in-process on a clock far from the data's; returns its exit code and output. */
async function report(db: string, out: string): Promise<{ code: number; stdout: string; message: string }> {
  let stdout = '';
  const ctx: CliContext = { stdout: (t) => (stdout += t), stderr: () => undefined, env: {}, cwd: '/', clock: new ManualClock(Date.UTC(2026, 5, 1)) };
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

/** Pixels of the canvas under `selector` within a few steps of the colour (antialiasing blends the edges). */
const pixelsOf = (selector: string, [r, g, b]: [number, number, number]): string => `(() => {
  const canvas = document.querySelector(${JSON.stringify(`${selector} canvas`)});
  const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - ${r}) < 8 && Math.abs(d[i + 1] - ${g}) < 8 && Math.abs(d[i + 2] - ${b}) < 8) n++;
  return n;
})()`;

describe.skipIf(!present)('the HTML report in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function open(url: string, charts: number): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url);
    // Browser-side code as text: the project compiles without the DOM's types.
    await page.waitForFunction(`window.jupbotCharts && window.jupbotCharts.length === ${charts}`);
    return { page, errors, requests };
  }

  const title = (page: Page, selector: string): Promise<string | null> => page.locator(selector).getAttribute('title');
  const text = async (page: Page, selector: string): Promise<string> => (await page.locator(selector).textContent()) ?? '';

  it('shows the equity curve, the figures of `audit pnl` and `audit trades`, the reasons and the distances, with no error and no network', async () => {
    const db = reportDatabase();
    const out = join(tempDir(), 'report.html');
    const run = await report(db, out);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/report written to .*report\.html: 4 trades, audit chain and sealed tables verified/);
    const { page, errors, requests } = await open(`file://${out}`, 5);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);

    // The run's mode and the clock of its data, not the clock `jupbot report` ran on.
    expect(await text(page, '#mode')).toBe('PAPER');
    expect(await page.title()).toBe('PAPER: jupbot report');
    expect(await text(page, '#as-of')).toBe('2026-01-01T01:02:00.000Z');

    // The equity curve: every point drawn, in its colour.
    expect(await page.evaluate<unknown>('window.jupbotCharts')).toEqual([
      { id: 'equity-chart', points: 11, drawn: 11, markers: 0 },
      { id: 'price-chart-0', points: 5, drawn: 7, markers: 2 },
      { id: 'price-chart-1', points: 5, drawn: 6, markers: 1 },
      { id: 'price-chart-2', points: 5, drawn: 6, markers: 1 },
      { id: 'price-chart-3', points: 5, drawn: 5, markers: 0 },
    ]);
    expect(await page.evaluate<number>(pixelsOf('#equity-chart', [26, 115, 232]))).toBeGreaterThan(500);
    expect(await page.evaluate<number>(pixelsOf('#price-chart-0', [24, 128, 56]))).toBeGreaterThan(20);
    expect(await text(page, '[data-field="equity.nowUsd"]')).toBe('$2,873.38');
    expect(await title(page, '[data-field="equity.nowUsd"]')).toBe('2873.38');

    // P&L: each figure rounded, its exact text on hover equal to `audit pnl --json`.
    const { verified, ...pnl } = JSON.parse((await audit(['--db', db, 'pnl', '--json'])).stdout) as {
      verified: { ok: boolean };
      total: Record<string, unknown>;
      strategies: Record<string, unknown>[];
    };
    expect(verified).toEqual({ ok: true, problem: null });
    for (const key of ['realizedUsd', 'unrealizedUsd', 'feesUsd', 'unmatchedProceedsUsd']) {
      expect(await title(page, `#pnl [data-field="total.${key}"]`)).toBe(pnl.total[key]);
      for (const s of pnl.strategies) expect(await title(page, `#pnl [data-field="${String(s.strategy)}.${key}"]`)).toBe(s[key]);
    }
    expect(await title(page, '#headline [data-field="total.realizedUsd"]')).toBe('7.5');
    expect(await text(page, '#headline [data-field="total.realizedUsd"]')).toBe('+$7.50');

    // Trades: as `audit trades --json` gives them, with the intent's reason.
    const trades = JSON.parse((await audit(['--db', db, 'trades', '--json'])).stdout) as {
      signature: string;
      idx: number;
      side: string;
      intentId: string;
      token: { amount: string };
      counter: { amount: string };
      priceUsd: string | null;
      fee: { amount: string } | null;
    }[];
    const planned = JSON.parse((await audit(['--db', db, 'actions', '--kind', 'intent.planned', '--json'])).stdout) as {
      intent_id: string;
      data: { reason: string };
    }[];
    expect(trades).toHaveLength(4);
    expect(await page.locator('#trades tbody tr').count()).toBe(4);
    for (const t of trades) {
      const row = `#trades tr[data-signature="${t.signature}"][data-idx="${t.idx}"]`;
      expect(await text(page, `${row} [data-field=side]`)).toBe(t.side);
      expect(await title(page, `${row} [data-field=amount]`)).toBe(t.token.amount);
      expect(await title(page, `${row} [data-field=counter]`)).toBe(t.counter.amount);
      expect(await title(page, `${row} [data-field=price]`)).toBe(t.priceUsd);
      expect(await title(page, `${row} [data-field=fee]`)).toBe(t.fee?.amount ?? null);
      expect(await text(page, `${row} .why`)).toBe(planned.find((p) => p.intent_id === t.intentId)?.data.reason);
    }
    const nba = '#trades tr[data-signature="sig-nba"]';
    expect([
      await text(page, `${nba} [data-field=amount]`),
      await text(page, `${nba} [data-field=counter]`),
      await text(page, `${nba} [data-field=price]`),
    ]).toEqual(['10 NBA-1 YES', '5.88 USDC', '$0.5880']);

    // The OCO in one row: both prices, and how far SOL ($175) is from each.
    const oco = '#orders tr[data-order="order-tp"]';
    expect(await page.locator('#orders tbody tr').count()).toBe(2);
    expect(await text(page, `${oco} [data-field=now]`)).toBe('$175.00');
    expect([await text(page, `${oco} [data-field=tp]`), await text(page, `${oco} [data-field="tp.distance"]`)]).toEqual(['$180.00', '+2.86%']);
    expect([await text(page, `${oco} [data-field=stop]`), await text(page, `${oco} [data-field="stop.distance"]`)]).toEqual(['$135.00', '-22.86%']);
    expect(await title(page, `${oco} [data-field="stop.distance"]`)).toBe('-22.857142857142857142%');

    // Holdings now, the wallet's and its vault orders'; the page's JSON has every figure exact.
    expect(await text(page, '#holdings tr[data-mint="DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"] [data-field=price]')).toBe('$0.00002000');
    expect(await page.locator('p.note[id^="note-"]').count()).toBe(0);
    const json = JSON.parse(await text(page, '#report-data')) as { equity: { nowUsd: string }; pnl: unknown };
    expect(json.equity.nowUsd).toBe('2873.38');
    expect(json.pnl).toEqual(pnl);
    expect(await page.locator('#chain').getAttribute('class')).toBe('banner chain-ok');
    await page.close();
  }, 60_000);

  it('says so when the database records no balances and no mode', async () => {
    const db = exampleDatabase();
    const out = join(tempDir(), 'report.html');
    expect((await report(db, out)).code).toBe(0);
    const { page, errors } = await open(`file://${out}`, 1);
    expect(errors).toEqual([]);
    expect(await text(page, '#mode')).toBe('mode unknown');
    expect(await text(page, '#note-fills-only')).toMatch(/^No wallet balances are recorded in this database/);
    // No kept prices: only the dollars the fills moved are valued, and what is left out is named.
    expect(await text(page, '#note-unpriced')).toBe('Held but never priced, so left out of equity: JUP, SOL, m1 YES.');
    // USDC -300, -160, +425, 0, +20, +1.8: -13.2 after the sixth fill.
    expect(await page.evaluate<unknown>('window.jupbotCharts')).toEqual([{ id: 'equity-chart', points: 6, drawn: 6, markers: 0 }]);
    expect(await title(page, '[data-field="equity.nowUsd"]')).toBe('-13.2');
    await page.close();
  }, 60_000);

  it('puts a broken chain first, in red, and exits 3', async () => {
    const db = reportDatabase();
    const handle = openDatabase(db);
    handle.exec("DROP TRIGGER actions_no_update; UPDATE actions SET data = '{}' WHERE id = 2;");
    handle.close();
    const out = join(tempDir(), 'broken.html');
    const run = await report(db, out);
    expect(run.code).toBe(3);
    expect(run.message).toMatch(/NOT VERIFIED: audit chain broken at action 2/);
    expect(readFileSync(out, 'utf8')).toContain('NOT VERIFIED: audit chain broken at action 2');
    const { page, errors } = await open(`file://${out}`, 5);
    expect(errors).toEqual([]);
    expect(await page.evaluate('document.querySelector("main").firstElementChild.id')).toBe('chain');
    const banner = page.locator('#chain.chain-broken');
    expect(await banner.isVisible()).toBe(true);
    expect((await banner.boundingBox())?.y ?? Infinity).toBeLessThan(100);
    expect(await page.evaluate("getComputedStyle(document.querySelector('#chain')).color")).toBe('rgb(165, 14, 14)');
    await page.close();
  }, 60_000);

  it('serves the same page at / on the ops server, drawing its charts under its own content policy', async () => {
    const db = reportDatabase();
    const handle = openDatabase(db, { readonly: true });
    const ops = await startOpsServer({
      listen: { host: '127.0.0.1', port: 0 },
      clock: new ManualClock(NOW),
      checks: [],
      pages: { '/': () => renderReport(reportData(handle, NOW), { refreshSeconds: 30 }) },
    });
    try {
      const { page, errors, requests } = await open(`${ops.url}/`, 5);
      expect(errors).toEqual([]);
      expect(requests).toEqual([`${ops.url}/`]);
      // The daemon's page stands at its own clock's now (in paper mode, the simulated one).
      expect(await text(page, '#as-of')).toBe('2026-01-01T01:05:00.000Z');
      expect(await page.evaluate<unknown>('window.jupbotCharts[0]')).toEqual({ id: 'equity-chart', points: 12, drawn: 12, markers: 0 });
      expect(await title(page, '#pnl [data-field="total.realizedUsd"]')).toBe('7.5');
      await page.close();
    } finally {
      await ops.close();
      handle.close();
    }
  }, 60_000);
});
