/**
 * `jupbot audit pnl` and `audit trades` over several wallets' databases (`--db` repeated): each
 * wallet's figures are what one `--db` gives, the total is their exact sum, the trades are one list
 * in time order with their wallet; a broken chain in one fails the command naming it, and the same
 * wallet twice is refused.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { CliExit, type CliContext } from '../../../src/cli/context.js';
import { reportCommand } from '../../../src/cli/report.js';
import { ExitCode } from '../../../src/exitCodes.js';
import { formatFixed, type Fixed, parseFixed } from '../../../src/money/decimal.js';
import { openStore } from '../../../src/store/migrate.js';
import { tempDir } from '../store/helpers.js';
import { audit, START } from './auditHarness.js';
import { threeWallets, walletDatabase, WALLETS } from './walletFixtures.js';

const DOLLAR_FIGURES = ['realizedUsd', 'unrealizedUsd', 'feesUsd', 'unmatchedProceedsUsd', 'basisCostUsd'] as const;
type Total = Record<(typeof DOLLAR_FIGURES)[number], string> & { trades: number; unpricedFees: number };
interface PnlJson {
  total: Total;
  strategies: unknown[];
  preHeld: unknown;
}

const fixed = (text: string): Fixed => {
  const value = parseFixed(text);
  if (value === undefined) throw new Error(`not a decimal: ${text}`);
  return value;
};

function tamper(file: string, sql: string): void {
  const { db } = openStore(file, { clock: new ManualClock() });
  db.exec('DROP TRIGGER actions_no_update; DROP TRIGGER actions_no_delete;');
  db.exec(sql);
  db.close();
}

const dbArgs = (files: readonly string[]): string[] => files.flatMap((file) => ['--db', file]);

describe('jupbot audit pnl over several wallets', () => {
  it('gives each wallet the figures one --db gives it, and a total that is their exact sum, figure by figure', async () => {
    const files = threeWallets();
    const singles: PnlJson[] = [];
    for (const file of files) {
      const run = await audit(['--db', file, 'pnl', '--json']);
      expect(run.code).toBe(0);
      singles.push(JSON.parse(run.stdout) as PnlJson);
    }
    const run = await audit([...dbArgs(files), 'pnl', '--json']);
    expect(run.code).toBe(0);
    const all = JSON.parse(run.stdout) as { wallets: (PnlJson & { wallet: string; file: string })[]; total: Total; verified: unknown };
    expect(all.wallets.map((w) => [w.wallet, w.file])).toEqual([
      [WALLETS.alpha.address, files[0]],
      [WALLETS.bravo.address, files[1]],
      [WALLETS.charlie.address, files[2]],
    ]);
    all.wallets.forEach(({ wallet: _wallet, file: _file, ...figures }, i) => {
      const { verified: _verified, ...single } = singles[i] as PnlJson & { verified: unknown };
      expect(figures).toEqual(single);
    });
    for (const figure of DOLLAR_FIGURES) {
      const sum = singles.reduce((acc, s) => acc + fixed(s.total[figure]), 0n);
      expect(all.total[figure]).toBe(formatFixed(sum));
    }
    expect(all.total.trades).toBe(singles.reduce((n, s) => n + s.total.trades, 0));
    expect(all.total.trades).toBe(10);
    expect(all.verified).toEqual({ ok: true, problem: null });
    // The wallets' figures are not round: the sum is exact where floats would not be.
    expect(singles.map((s) => [s.total.realizedUsd, s.total.unrealizedUsd])).toEqual([
      ['45', '5'],
      ['17.33333538', '32.666677504999997884'],
      ['4.000001', '6.0000015'],
    ]);
    expect([all.total.realizedUsd, all.total.unrealizedUsd, all.total.feesUsd]).toEqual(['66.33333638', '43.666679004999997884', '0.985999']);
  });

  it('prints each wallet under its address and file, then a table of the wallets and their total', async () => {
    const files = threeWallets();
    const run = await audit(['pnl', ...dbArgs(files)]);
    expect(run.code).toBe(0);
    for (const [i, w] of [WALLETS.alpha, WALLETS.bravo, WALLETS.charlie].entries()) expect(run.stdout).toContain(`wallet ${w.address} (${files[i]})\n`);
    const single = (await audit(['--db', files[1] as string, 'pnl'])).stdout;
    expect(run.stdout).toContain(single);
    expect(run.stdout).toMatch(/all wallets\nwallet\s+trades\s+realized/);
    expect(run.stdout).toMatch(new RegExp(`${WALLETS.alpha.address}\\s+3\\s+\\$45\\.00\\s+\\$5\\.00`));
    expect(run.stdout).toMatch(/total of 3 wallets\s+10\s+\$66\.33\s+\$43\.67\s+\$0\.99\s+\$0\.00\n$/);
  });

  it('fails with the broken-chain exit code, naming the database whose chain is broken, and adds nothing up', async () => {
    const files = threeWallets();
    tamper(files[1] as string, "UPDATE actions SET kind = 'forged' WHERE id = 2;");
    for (const args of [['pnl'], ['pnl', '--json'], ['trades'], ['trades', '--json']]) {
      const run = await audit([...dbArgs(files), ...args]);
      expect(run.code).toBe(ExitCode.AuditChainBroken);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`UNVERIFIED: ${WALLETS.bravo.address} (${files[1]}): `);
      expect(run.stderr).not.toContain(WALLETS.alpha.address);
      expect(run.stderr).not.toContain(WALLETS.charlie.address);
    }
  });

  it('refuses the same wallet twice, and the same file twice: its figures would count twice', async () => {
    const [alpha, bravo] = threeWallets() as [string, string];
    const copy = walletDatabase(WALLETS.alpha.address, WALLETS.alpha.fills.slice(0, 1));
    const twice = await audit([...dbArgs([alpha, bravo, copy]), 'pnl']);
    expect(twice.code).toBe(ExitCode.Usage);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toBe(`${alpha} and ${copy} are both databases of wallet ${WALLETS.alpha.address}: its figures would count twice; give one of them`);
    const sameFile = await audit([...dbArgs([bravo, alpha, bravo]), 'trades']);
    expect(sameFile.code).toBe(ExitCode.Usage);
    expect(sameFile.stderr).toBe(`${bravo} is given twice with --db: its figures would count twice`);
  });

  it('labels a database that records no wallet as such and adds it in; a wallet whose holding has no price leaves the total unrealized unknown', async () => {
    const [alpha] = threeWallets() as [string];
    // Bravo's first three fills: the JUP its swap bought has no dollar price yet.
    const unnamed = walletDatabase(null, WALLETS.bravo.fills.slice(0, 3));
    const run = await audit([...dbArgs([alpha, unnamed]), 'pnl', '--json']);
    expect(run.code).toBe(0);
    const all = JSON.parse(run.stdout) as { wallets: { wallet: string }[]; total: Total };
    expect(all.wallets.map((w) => w.wallet)).toEqual([WALLETS.alpha.address, '(wallet not recorded)']);
    expect([all.total.realizedUsd, all.total.unrealizedUsd]).toEqual(['58.33333238', null]);
  });
});

describe('jupbot audit trades over several wallets', () => {
  it('lists every wallet’s trades as one list in time order, each with its wallet', async () => {
    const files = threeWallets();
    const run = await audit([...dbArgs(files), 'trades', '--json']);
    expect(run.code).toBe(0);
    const all = JSON.parse(run.stdout) as {
      wallets: { wallet: string; file: string; trades: number; pending: number }[];
      trades: { wallet: string; at: string; strategy: string; signature: string }[];
      pending: unknown[];
      total: { trades: number; pending: number };
    };
    expect(all.wallets).toEqual([
      { wallet: WALLETS.alpha.address, file: files[0], trades: 3, pending: 0 },
      { wallet: WALLETS.bravo.address, file: files[1], trades: 4, pending: 0 },
      { wallet: WALLETS.charlie.address, file: files[2], trades: 3, pending: 0 },
    ]);
    expect(all.trades.map((t) => [t.at.slice(11, 19), t.strategy, t.wallet.slice(0, 4)])).toEqual([
      ['00:01:00', 'sol-tp', 'A1ph'],
      ['00:02:00', 'dip-buy', 'Brav'],
      ['00:02:30', 'jup-acc', 'Char'],
      ['00:03:00', 'sol-tp', 'A1ph'],
      ['00:04:00', 'dip-buy', 'Brav'],
      ['00:04:00', 'jup-acc', 'Char'],
      ['00:05:00', 'sol-tp', 'A1ph'],
      ['00:06:00', 'dip-buy', 'Brav'],
      ['00:06:30', 'dip-buy', 'Brav'],
      ['00:07:00', 'jup-acc', 'Char'],
    ]);
    expect(all.total).toEqual({ trades: 10, pending: 0 });
    // Each trade is the one `audit trades --json` gives for its own database, with the wallet added.
    const bravo = JSON.parse((await audit(['--db', files[1] as string, 'trades', '--json'])).stdout) as unknown[];
    expect(all.trades.filter((t) => t.wallet === WALLETS.bravo.address).map(({ wallet: _w, ...t }) => t)).toEqual(bravo);
  });

  it('puts the wallet first in the CSV and the table, the filters applying to every database', async () => {
    const files = threeWallets();
    const csv = (await audit([...dbArgs(files), 'trades', '--csv', '--token', 'JUP'])).stdout.split('\r\n').filter((l) => l !== '');
    expect(csv[0]).toBe(
      'wallet,at,strategy,strategy_version,source,side,token,token_mint,token_amount,counter,counter_mint,counter_amount,price_usd,fee_token,fee_amount,fee_usd,intent_id,order_id,signature,idx',
    );
    expect(csv.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      `${WALLETS.charlie.address},2026-01-01T00:02:30.000Z,jup-acc`,
      `${WALLETS.charlie.address},2026-01-01T00:04:00.000Z,jup-acc`,
      `${WALLETS.bravo.address},2026-01-01T00:06:00.000Z,dip-buy`,
      `${WALLETS.bravo.address},2026-01-01T00:06:30.000Z,dip-buy`,
    ]);
    const table = (await audit(['trades', ...dbArgs(files), '--strategy', 'sol-tp'])).stdout;
    expect(table).toContain(`wallet ${WALLETS.alpha.address} (${files[0]}): 3 trade(s)\n`);
    expect(table).toContain(`wallet ${WALLETS.bravo.address} (${files[1]}): 0 trade(s)\n`);
    expect(table).toMatch(/^time \(UTC\)\s+wallet\s+strategy/m);
    expect(table.match(/A1ph…1111\s+sol-tp/g)).toHaveLength(3);
    expect(table).toContain('total: 3 trade(s) over 3 wallets\n');
  });
});

describe('the audit commands that read one database', () => {
  it('refuse a repeated --db by name rather than read only the last', async () => {
    const files = threeWallets();
    for (const sub of ['verify', 'actions', 'orders']) {
      const run = await audit([...dbArgs(files.slice(0, 2)), sub]);
      expect(run.code).toBe(ExitCode.Usage);
      expect(run.stderr).toBe(`jupbot audit ${sub} reads one database, but --db was given 2 times (audit pnl, audit trades and report take several)`);
    }
  });
});

/** Runs `jupbot report` in-process; the exit code and what it printed or failed with. */
async function report(args: string[]): Promise<{ code: number; stdout: string; message: string }> {
  let stdout = '';
  const ctx: CliContext = { stdout: (t) => (stdout += t), stderr: () => undefined, env: {}, cwd: '/', clock: new ManualClock(START) };
  const program = new Command('jupbot').addCommand(reportCommand(ctx, ({ db }) => Promise.resolve(db ?? '')));
  try {
    await program.parseAsync(['report', ...args], { from: 'user' });
    return { code: 0, stdout, message: '' };
  } catch (error) {
    if (error instanceof CliExit) return { code: error.exitCode, stdout, message: error.message };
    throw error;
  }
}

/** The exact figure a page shows under `data-field` (the first such, in its `title`). */
function exactField(html: string, field: string): string | null {
  const match = new RegExp(`data-field="${field.replace(/\./g, '\\.')}"(?: title="([^"]*)")?`).exec(html);
  if (match === null) throw new Error(`no ${field} on the page`);
  return match[1] ?? null;
}

describe('jupbot report over several wallets', () => {
  it('writes one page whose total is the exact sum of the figures each wallet’s own report shows', async () => {
    const files = threeWallets();
    const dir = tempDir();
    const singles: string[] = [];
    for (const [i, file] of files.entries()) {
      const out = join(dir, `single-${i}.html`);
      expect((await report(['--db', file, '--out', out])).code).toBe(0);
      singles.push(readFileSync(out, 'utf8'));
    }
    const out = join(dir, 'all.html');
    const run = await report([...dbArgs(files), '--out', out]);
    expect(run).toMatchObject({ code: 0, stdout: `report written to ${out}: 3 wallets, 10 trades, every audit chain and its sealed tables verified\n` });
    const page = readFileSync(out, 'utf8');
    const totals = /<section id="wallets-total">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? '';
    for (const figure of ['realizedUsd', 'unrealizedUsd', 'feesUsd', 'unmatchedProceedsUsd']) {
      const sum = singles.reduce((acc, html) => acc + fixed(exactField(html, `total.${figure}`) ?? 'x'), 0n);
      expect(exactField(totals, `total.${figure}`)).toBe(formatFixed(sum));
      singles.forEach((html, i) => expect(exactField(totals, `wallets.${i}.${figure}`)).toBe(exactField(html, `total.${figure}`)));
    }
    expect(exactField(totals, 'total.realizedUsd')).toBe('66.33333638');
    expect(exactField(totals, 'total.trades')).toBe('10');
    for (const [i, w] of [WALLETS.alpha, WALLETS.bravo, WALLETS.charlie].entries())
      expect(page).toContain(`<section class="wallet" data-wallet="${w.address}" data-file="${files[i]}">`);
  });

  it('names a database whose chain is broken, fails with the broken-chain exit code and writes no page', async () => {
    const files = threeWallets();
    tamper(files[2] as string, "UPDATE actions SET kind = 'forged' WHERE id = 2;");
    const out = join(tempDir(), 'all.html');
    const run = await report([...dbArgs(files), '--out', out]);
    expect(run.code).toBe(ExitCode.AuditChainBroken);
    expect(run.message).toContain(`UNVERIFIED: ${WALLETS.charlie.address} (${files[2]}): `);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});
