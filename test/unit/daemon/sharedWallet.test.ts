/**
 * Someone else trading the daemon's wallet where the wallet lock cannot see them: a second jupbot
 * with another data directory and another lock directory (another host, another container), or a
 * person or bot using the same key through Jupiter's API. `jupbot run` over one simulated world on
 * a stepping clock; the other trader acts through the simulator's public API.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { driveTo } from '../../../src/backtest/driveTo.js';
import type { Daemon, DaemonDeps } from '../../../src/daemon.js';
import { start } from '../../../src/daemon.js';
import { ExitCode } from '../../../src/exitCodes.js';
import { createLogger } from '../../../src/ops/log.js';
import { INSTANCE_ID_FILE } from '../../../src/store/instanceId.js';
import { jupbot, type CliRun } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';
import {
  driveUntil,
  foreignPriceOrder,
  foreignSwap,
  JUP,
  landedAt,
  sharedWorld,
  type SharedWorld,
  USDC,
  workspace,
  type Workspace,
} from './sharedWalletSupport.js';

/** `jupbot run` starts its daemon through this seam: the shared world and network go in, each started daemon comes out. */
const seam = vi.hoisted(() => ({
  deps: {},
  started: [] as Daemon[],
  onStart: null as ((daemon: Daemon) => void) | null,
}));
vi.mock(import('../../../src/daemon.js'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    start: async (...[config, deps]: Parameters<typeof original.start>) => {
      const daemon = await original.start(config, { ...deps, ...(seam.deps as Partial<DaemonDeps>) });
      seam.started.push(daemon);
      seam.onStart?.(daemon);
      return daemon;
    },
  };
});

const START = Date.UTC(2026, 10, 24, 8, 0);
const dirs: string[] = [];
const worlds: SharedWorld[] = [];
afterEach(async () => {
  for (const d of seam.started.splice(0)) await d.stop('test over');
  seam.deps = {};
  seam.onStart = null;
  for (const w of worlds.splice(0)) await w.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setUp(label: string): Promise<{ root: string; w: SharedWorld }> {
  const root = mkdtempSync(join(tmpdir(), `jupbot-${label}-`));
  dirs.push(root);
  const w = await sharedWorld(root, START);
  worlds.push(w);
  seam.deps = { paperWorld: w.world, network: w.net.fetch };
  return { root, w };
}

interface Running {
  readonly daemon: Daemon;
  readonly result: Promise<CliRun>;
  /** Every JSON log line so far. */
  lines(): Record<string, unknown>[];
}

/** `jupbot run --config <ws>` in the background, once its daemon has started. */
async function run(w: SharedWorld, ws: Workspace): Promise<Running> {
  let stdout = '';
  const started = new Promise<Daemon>((resolve) => (seam.onStart = resolve));
  const result = jupbot(['run', '--config', ws.configFile], { clock: w.clock, onStdout: (text) => (stdout += text) });
  const daemon = await Promise.race([started, result.then((r) => Promise.reject(new Error(`run ended: ${r.code} ${r.stderr}`)))]);
  seam.onStart = null;
  return {
    daemon,
    result,
    lines: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

function actions(data: string, kind: string): { signature: string | null; data: Record<string, unknown> }[] {
  const db = new Database(join(data, 'jupbot-paper.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT signature, data FROM actions WHERE kind = ? ORDER BY id').all(kind) as { signature: string | null; data: string }[]).map(
      (row) => ({ signature: row.signature, data: JSON.parse(row.data) as Record<string, unknown> }),
    );
  } finally {
    db.close();
  }
}

function journaled(data: string, signature: string): boolean {
  const db = new Database(join(data, 'jupbot-paper.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT 1 FROM intents WHERE signature = ?').get(signature) !== undefined;
  } finally {
    db.close();
  }
}

/** The confirmed swap intents of a daemon. */
function swapsOf(data: string): string[] {
  const db = new Database(join(data, 'jupbot-paper.sqlite'), { readonly: true });
  try {
    return (db.prepare("SELECT id FROM intents WHERE kind = 'swap' AND state = 'confirmed' ORDER BY created_at").all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();
/** When a transaction landed, as the node says. */
const at = async (w: SharedWorld, signature: string): Promise<string> => iso(await landedAt(w, signature));

/**
 * A vault exit on a token the wallet does not hold: it places nothing, but it needs Trigger, so the
 * order feeds run (a daemon polls Trigger only while something needs it) and see foreign orders.
 */
const VAULT_WATCH = `name: bonk-vault-exit
kind: price-order
sell: BONK
receive: USDC
amount: "50%"
execution: vault
take_profit:
  - at: "+50%"
    sell: "100%"
expires_after: 7d
`;

const TODO =
  'Trading stops: nothing new is decided, what is in flight stays in the journal for the next start, and jupbot exits with code 77, which the service manager does not restart. ' +
  'Stop the other trader (another jupbot on another host or with another lock_dir, or another tool using this key), then start this one again; ' +
  'if others trade this wallet on purpose, set wallet.shared: true. The vault orders this daemon placed stay open: jupbot audit orders lists them.';

const DCA = `name: dca-jup
kind: dca
buy: JUP
pay_with: USDC
amount: "2"
execution: swap
schedule:
  cron: "*/5 * * * *"
  timezone: UTC
max_runs_per_day: 288
`;

describe('another jupbot on the same wallet, on another host (another data_dir and lock_dir)', () => {
  it('is seen by its DCA swaps: the first is warned about, the second stops the daemon that saw it with 77, naming the transaction and what to do; the other trades on alone', async () => {
    const { root, w } = await setUp('two-hosts');
    const a = workspace(w, root, 'host-a', { 'dca.yaml': DCA });
    const b = workspace(w, root, 'host-b', { 'dca.yaml': DCA });
    const first = await start(a.config, { clock: w.clock, log: createLogger({ destination: new MemoryStream() }) });
    await driveTo(w.clock, w.net, START + 7_000);
    // The wallet lock does not meet them: host-b has its own lock_dir.
    const second = await run(w, b);
    expect(second.daemon.engine.wallet).toBe(first.engine.wallet);
    expect(second.daemon.instanceId).not.toBe(first.instanceId);

    await driveUntil(w, () => second.daemon.halted() !== null, 30 * 60_000);
    await driveTo(w.clock, w.net, w.clock.now() + 10_000);
    const result = await second.result;
    expect(result.code).toBe(ExitCode.WalletShared);

    // What host-b saw were host-a's DCA swaps (08:05 and 08:10): journaled there, never here.
    const [warned, stopped, ...more] = actions(b.data, 'wallet.foreign_activity');
    expect(more).toEqual([]);
    const seen = [warned?.signature ?? '', stopped?.signature ?? ''];
    expect(seen.map((s) => [journaled(a.data, s), journaled(b.data, s)])).toEqual([
      [true, false],
      [true, false],
    ]);
    expect([warned?.data['verdict'], stopped?.data['verdict']]).toEqual(['warned', 'stopped']);
    const instance = readFileSync(join(b.data, INSTANCE_ID_FILE), 'utf8').trim();
    expect(instance).toBe(second.daemon.instanceId);
    const message =
      `wallet ${w.wallet} is traded by someone else: the Jupiter swap ${seen[1]} at ${await at(w, seen[1] ?? '')} is the second Jupiter transaction ` +
      `signed with this wallet's key but not by this jupbot (instance ${instance}, data_dir ${b.data}) since it started at ${iso(START + 7_000)} ` +
      `(the first: ${seen[0]} at ${await at(w, seen[0] ?? '')}). ${TODO}`;
    expect(result.stderr).toBe(`jupbot: ${message}\n`);
    expect(stopped?.data).toMatchObject({ wallet: w.wallet, instanceId: instance, verdict: 'stopped', foreignTransactions: 2, message });
    expect(stopped?.data['evidence']).toMatchObject({ kind: 'transaction', signature: seen[1], trade: 'swap', failed: false });
    const [stop] = actions(b.data, 'daemon.stopped');
    expect(stop?.data['reason']).toBe(`WALLET_SHARED: another trader on wallet ${w.wallet}: Jupiter swap ${seen[1]} at ${await at(w, seen[1] ?? '')}`);
    const [began] = actions(b.data, 'daemon.started');
    expect(began?.data['instanceId']).toBe(instance);

    // host-a saw one swap of host-b's (08:05), was warned, and trades on alone: a DCA run doubled once, not twelve times.
    await driveTo(w.clock, w.net, START + 40 * 60_000);
    expect(first.halted()).toBeNull();
    expect(swapsOf(b.data).map((id) => id.replace(/\/[0-9a-f]+\//, '/…/'))).toEqual(['dca-jup/…/run/2026-11-24T08:05:00.000Z']);
    const others = actions(a.data, 'wallet.foreign_activity');
    expect(others.map((r) => [r.data['verdict'], journaled(b.data, r.signature ?? '')])).toEqual([['warned', true]]);
  }, 120_000);
});

describe('someone else trading the wallet through the API', () => {
  it('one manual swap is a warning and trading goes on; a second stops the daemon: error line, webhook, /readyz, audit row, exit 77', async () => {
    const { root, w } = await setUp('manual');
    const posts: Record<string, unknown>[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    seam.deps = {
      ...seam.deps,
      // The webhook takes the stop's alert and keeps it a while: the daemon waits for it before it closes /readyz.
      fetch: async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as Record<string, unknown>;
        posts.push(body);
        if (body['type'] === 'wallet_shared' && body['verdict'] === 'stopped') await held;
        return new Response(null, { status: 204 });
      },
    };
    const ws = workspace(w, root, 'solo', {}, 'notify:\n  webhooks:\n    - { kind: generic, url: "https://hooks.example.com/jupbot" }\n');
    const daemon = await run(w, ws);
    await driveTo(w.clock, w.net, START + 30_000);
    const instance = daemon.daemon.instanceId;
    const who = `this jupbot (instance ${instance}, data_dir ${ws.data})`;

    const manual = await foreignSwap(w, USDC, JUP, '5000000');
    await driveTo(w.clock, w.net, START + 60_000);
    const warning =
      `wallet ${w.wallet}: the Jupiter swap ${manual} at ${await at(w, manual)} was signed with this wallet's key but not by ${who}: someone else traded this wallet. ` +
      `One such transaction is taken for a manual trade and trading goes on; a second one while this daemon runs stops it (WALLET_SHARED). ` +
      `If another jupbot or tool trades this wallet, stop it; if you trade it by hand, set wallet.shared: true.`;
    expect(
      daemon
        .lines()
        .filter((l) => l['kind'] === 'wallet.foreign_activity')
        .map((l) => [l['level'], l['msg']]),
    ).toEqual([['warn', warning]]);
    expect(posts.filter((p) => p['type'] === 'wallet_shared')).toEqual([
      expect.objectContaining({ event: 'error', verdict: 'warned', wallet: w.wallet, text: `jupbot: warning: ${warning}` }),
    ]);
    expect(daemon.daemon.halted()).toBeNull();
    const ready = (await (await fetch(`${daemon.daemon.opsUrl}/readyz`)).json()) as { checks: { name: string; ok: boolean }[] };
    expect(ready.checks.find((c) => c.name === 'wallet')).toEqual({ name: 'wallet', ok: true });

    // A while later, the same again: someone trades this wallet.
    await driveTo(w.clock, w.net, START + 5 * 60_000);
    expect(daemon.daemon.halted()).toBeNull();
    const again = await foreignSwap(w, USDC, JUP, '5000000');
    await driveUntil(w, () => posts.some((p) => p['type'] === 'wallet_shared' && p['verdict'] === 'stopped'), 60_000);
    const message =
      `wallet ${w.wallet} is traded by someone else: the Jupiter swap ${again} at ${await at(w, again)} is the second Jupiter transaction ` +
      `signed with this wallet's key but not by ${who} since it started at ${iso(START)} (the first: ${manual} at ${await at(w, manual)}). ${TODO}`;
    // Stopping: no new intent, and /readyz says why while the daemon finishes.
    expect(daemon.daemon.engine.trading.executor.stopped).toBe(true);
    const stopping = await fetch(`${daemon.daemon.opsUrl}/readyz`);
    expect(stopping.status).toBe(503);
    const body = (await stopping.json()) as { checks: { name: string; ok: boolean; detail?: string }[] };
    expect(body.checks.find((c) => c.name === 'wallet')).toEqual({ name: 'wallet', ok: false, detail: message });
    expect(
      daemon
        .lines()
        .filter((l) => l['kind'] === 'wallet.foreign_activity')
        .map((l) => [l['level'], l['msg']]),
    ).toEqual([
      ['warn', warning],
      ['error', message],
    ]);
    release();
    await driveTo(w.clock, w.net, w.clock.now() + 10_000);
    const result = await daemon.result;
    expect([result.code, result.stderr]).toEqual([77, `jupbot: ${message}\n`]);
    expect(posts.filter((p) => p['type'] === 'wallet_shared').map((p) => p['verdict'])).toEqual(['warned', 'stopped']);
    expect(posts.at(-1)).toMatchObject({ type: 'lifecycle', action: 'stopped' });
    const rows = actions(ws.data, 'wallet.foreign_activity');
    expect(rows.map((r) => [r.signature, r.data['verdict'], r.data['foreignTransactions']])).toEqual([
      [manual, 'warned', 1],
      [again, 'stopped', 2],
    ]);
  }, 120_000);

  it('an order placed before the start is adopted as it always was; one created while the daemon runs stops it at once with 77', async () => {
    const { root, w } = await setUp('orders');
    const ws = workspace(w, root, 'solo', { 'vault.yaml': VAULT_WATCH });
    w.world.fund(w.wallet);
    const before = await foreignPriceOrder(w);
    await driveTo(w.clock, w.net, START + 5_000);
    const daemon = await run(w, ws);
    await driveTo(w.clock, w.net, START + 60_000);
    expect(daemon.daemon.halted()).toBeNull();
    const [adopted] = actions(ws.data, 'order.adopted');
    expect(adopted?.data).toMatchObject({ orderId: before, family: 'price', arrival: 'pre-existing', createdAt: START });
    expect(actions(ws.data, 'wallet.foreign_activity')).toEqual([]);

    await driveTo(w.clock, w.net, START + 120_000);
    const created = w.clock.now();
    const during = await foreignPriceOrder(w);
    await driveUntil(w, () => daemon.daemon.halted() !== null, 60_000);
    await driveTo(w.clock, w.net, w.clock.now() + 10_000);
    const result = await daemon.result;
    const deposit = actions(ws.data, 'order.adopted').find((a) => a.data['orderId'] === during)?.signature ?? '';
    const message =
      `wallet ${w.wallet} is traded by someone else: Trigger price order ${during} was created at ${iso(created)}, ` +
      `after this jupbot (instance ${daemon.daemon.instanceId}, data_dir ${ws.data}) started at ${iso(START + 5_000)}, and no intent of ours funded it (deposit ${deposit}). ${TODO}`;
    expect([result.code, result.stderr]).toEqual([77, `jupbot: ${message}\n`]);
    expect(actions(ws.data, 'order.adopted').map((a) => [a.data['orderId'], a.data['arrival']])).toEqual([
      [before, 'pre-existing'],
      [during, 'while-running'],
    ]);
    expect(actions(ws.data, 'wallet.foreign_activity').map((a) => [a.signature, a.data['verdict'], a.data['evidence']])).toEqual([
      [deposit, 'stopped', expect.objectContaining({ kind: 'order', family: 'price', orderId: during, createdAt: created, depositSignature: deposit })],
    ]);
  }, 120_000);

  it('with wallet.shared: true, foreign swaps and orders are adopted or ignored and the daemon trades on', async () => {
    const { root, w } = await setUp('shared');
    const ws = workspace(w, root, 'solo', { 'vault.yaml': VAULT_WATCH }, 'wallet: { shared: true }\n');
    const daemon = await run(w, ws);
    await driveTo(w.clock, w.net, START + 30_000);
    expect(daemon.daemon.engine.walletHistory).toBeNull();
    await foreignSwap(w, USDC, JUP, '5000000');
    await driveTo(w.clock, w.net, START + 60_000);
    await foreignSwap(w, USDC, JUP, '5000000');
    const order = await foreignPriceOrder(w);
    await driveTo(w.clock, w.net, START + 120_000);
    expect(daemon.daemon.halted()).toBeNull();
    expect(actions(ws.data, 'wallet.foreign_activity')).toEqual([]);
    expect(actions(ws.data, 'order.adopted').map((a) => [a.data['orderId'], a.data['arrival']])).toEqual([[order, 'while-running']]);
    const ready = (await (await fetch(`${daemon.daemon.opsUrl}/readyz`)).json()) as { checks: { name: string; ok: boolean }[] };
    expect(ready.checks.find((c) => c.name === 'wallet')).toEqual({ name: 'wallet', ok: true });
  }, 120_000);
});
