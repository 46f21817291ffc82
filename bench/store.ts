/**
 * Audit-log write and verify throughput on a file database: `npx tsx bench/store.ts`.
 * Not part of `npm test`. Target: >= 20,000 actions/s one per transaction with synchronous=NORMAL.
 *
 * Commit cost on a VM disk varies a lot from one second to the next, so each one-per-transaction
 * figure is measured in several rounds (best and median printed), interleaved with a baseline:
 * the same rows, already hashed, inserted by a bare prepared statement (one per transaction). The
 * ratio between the two is the cost of the audit log itself (validation, canonical JSON, SHA-256,
 * chain check); the baseline is what the disk allows. FULL (the daemon's default) is printed for
 * information: there every commit waits for an fsync.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/clock.js';
import { GENESIS_HASH, hashActionRow, toActionColumns, type ActionInput } from '../src/store/actionRow.js';
import { AuditLog } from '../src/store/audit.js';
import { verifyAuditChain } from '../src/store/chainVerifier.js';
import { Journal } from '../src/store/journal.js';
import { openStore } from '../src/store/migrate.js';

const TARGET_PER_SECOND = 20_000;
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** A realistic action: a signed swap with the snapshot and quote that caused it. */
function action(i: number): ActionInput {
  return {
    kind: i % 2 === 0 ? 'intent.signed' : 'fill',
    strategy: 'tp-sol',
    intentId: `tp-sol:take-profit:${Math.floor(i / 2)}`,
    mint: USDC,
    amount: 1_500_000n + BigInt(i),
    decimals: 6,
    signature: `5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6Uj${String(i).padStart(9, '0')}`,
    data: {
      rule: 'take-profit',
      trigger: { priceUsd: '187.25', condition: 'above' },
      snapshot: { priceUsd: '187.31', at: 1767225600000 + i, source: 'price' },
      quote: { inAmount: '1500000', outAmount: '8011200', slippageBps: 50, router: 'metis' },
    },
  };
}

type Sync = 'NORMAL' | 'FULL';

function perSecond(count: number, ms: number): number {
  return (count / ms) * 1000;
}

function fmt(rate: number): string {
  return `${Math.round(rate).toLocaleString('en-US')}/s`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A fresh migrated database in `dir`. */
function store(dir: string, name: string, synchronous: Sync): ReturnType<typeof openStore> {
  return openStore(join(dir, `${name}.sqlite`), { clock: new ManualClock(), synchronous });
}

/** AuditLog.append, one action per transaction. */
function appendRound(dir: string, synchronous: Sync, inputs: readonly ActionInput[], round: number): number {
  const { db } = store(dir, `append-${synchronous}-${round}`, synchronous);
  const log = new AuditLog(db, new ManualClock());
  for (let i = 0; i < 100; i++) log.append(inputs[i] as ActionInput); // warm up
  const start = performance.now();
  for (const input of inputs) log.append(input);
  const rate = perSecond(inputs.length, performance.now() - start);
  db.close();
  return rate;
}

/** The same rows, hashed beforehand, through a bare prepared INSERT: what the disk allows. */
function baselineRound(dir: string, synchronous: Sync, inputs: readonly ActionInput[], round: number): number {
  const { db } = store(dir, `baseline-${synchronous}-${round}`, synchronous);
  const rows: unknown[][] = [];
  let prev = GENESIS_HASH;
  for (let i = 0; i < inputs.length + 100; i++) {
    const columns = toActionColumns(inputs[i % inputs.length] as ActionInput);
    const row = { id: i + 1, at: 1767225600000, ...columns, prev_hash: prev };
    const hash = hashActionRow(row);
    rows.push([row.id, row.at, row.kind, row.strategy, row.intent_id, row.mint, row.amount, row.decimals, row.signature, row.data, prev, hash]);
    prev = hash;
  }
  const insert = db.prepare(
    'INSERT INTO actions (id, at, kind, strategy, intent_id, mint, amount, decimals, signature, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const one = db.transaction((row: unknown[]) => insert.run(...row));
  for (let i = 0; i < 100; i++) one.immediate(rows[i] as unknown[]);
  const start = performance.now();
  for (let i = 100; i < rows.length; i++) one.immediate(rows[i] as unknown[]);
  const rate = perSecond(inputs.length, performance.now() - start);
  db.close();
  return rate;
}

/** appendMany in batches, then verify the whole chain. */
function batchAndVerify(dir: string, synchronous: Sync, inputs: readonly ActionInput[], batches: number): string[] {
  const { db } = store(dir, `batch-${synchronous}`, synchronous);
  const log = new AuditLog(db, new ManualClock());
  let start = performance.now();
  for (let b = 0; b < batches; b++) log.appendMany(inputs);
  const batchRate = perSecond(batches * inputs.length, performance.now() - start);

  start = performance.now();
  const result = log.verify();
  const verifyRate = perSecond(result.checked, performance.now() - start);
  if (!result.ok) throw new Error(`chain broken after the benchmark: ${JSON.stringify(result.firstBreak)}`);
  db.close();
  const mb = (statSync(join(dir, `batch-${synchronous}.sqlite`)).size / 1024 / 1024).toFixed(1);
  return [
    `  appendMany, ${inputs.length} per transaction (${(batches * inputs.length).toLocaleString('en-US')} actions)`.padEnd(64) + fmt(batchRate).padStart(12),
    `  verify, streaming (${result.checked.toLocaleString('en-US')} rows, ${mb} MB file)`.padEnd(64) + fmt(verifyRate).padStart(12),
  ];
}

/**
 * Sealed rows: swaps through the journal (planned, sent, confirmed with a fill: three intent seals
 * and one fill seal, each in its action), then verify with the table check: what sealing costs.
 */
function sealedSwaps(dir: string, count: number): string[] {
  const { db } = store(dir, 'sealed', 'NORMAL');
  const clock = new ManualClock();
  const journal = new Journal(db, new AuditLog(db, clock), clock);
  let start = performance.now();
  for (let i = 0; i < count; i++) {
    const id = `tp-sol:take-profit:${i}`;
    journal.plan({ id, strategy: 'tp-sol', kind: 'swap', params: { amount: String(1_500_000 + i) }, reason: 'price 187.25 reached 187.00' });
    journal.markSent(id);
    journal.markConfirmed(id, {}, [
      {
        signature: `sig-${i}`,
        idx: 0,
        source: 'swap',
        inMint: USDC,
        inAmount: String(1_500_000 + i),
        inDecimals: 6,
        outMint: 'So11111111111111111111111111111111111111112',
        outAmount: String(10_000_000 + i),
        outDecimals: 9,
        at: 1767225600000 + i,
      },
    ]);
  }
  const swapRate = perSecond(count, performance.now() - start);
  start = performance.now();
  const result = verifyAuditChain(db);
  const ms = performance.now() - start;
  if (!result.ok) throw new Error(`sealed rows do not verify: ${JSON.stringify(result.rows?.first ?? result.firstBreak)}`);
  db.close();
  return [
    `  swaps through the journal, 4 sealed writes each (${count.toLocaleString('en-US')})`.padEnd(64) + fmt(swapRate).padStart(12),
    `  verify with the table check (${result.checked.toLocaleString('en-US')} actions, ${(2 * count).toLocaleString('en-US')} rows)`.padEnd(64) +
      `${(ms / 1000).toFixed(2)} s`.padStart(12),
  ];
}

/**
 * Host calibration: the measurement reference/dependencies.md took when the stack was chosen
 * (4-column rows, autocommit, NORMAL: 95-98k/s then). Scales every other figure to this machine now.
 */
function calibrationRate(dir: string, round: number): number {
  const { db } = store(dir, `calibration-${round}`, 'NORMAL');
  db.exec('CREATE TABLE calibration (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c TEXT)');
  const insert = db.prepare('INSERT INTO calibration (a, b, c) VALUES (?, ?, ?)');
  const text = 'x'.repeat(88);
  const count = 20_000;
  const start = performance.now();
  for (let i = 0; i < count; i++) insert.run(i, text, 'y');
  const rate = perSecond(count, performance.now() - start);
  db.close();
  return rate;
}

/** AuditLog.append on an in-memory database: the CPU cost of the whole path, no disk at all. */
function memoryRate(count: number): number {
  const { db } = openStore(':memory:', { clock: new ManualClock() });
  const log = new AuditLog(db, new ManualClock());
  const inputs = Array.from({ length: count }, (_, i) => action(i));
  for (let i = 0; i < 100; i++) log.append(inputs[i] as ActionInput);
  const start = performance.now();
  for (const input of inputs) log.append(input);
  const rate = perSecond(count, performance.now() - start);
  db.close();
  return rate;
}

function onePerTransaction(dir: string, synchronous: Sync, count: number, rounds: number): { append: number[]; baseline: number[] } {
  const inputs = Array.from({ length: count }, (_, i) => action(i));
  const append: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < rounds; round++) {
    baseline.push(baselineRound(dir, synchronous, inputs, round));
    append.push(appendRound(dir, synchronous, inputs, round));
  }
  return { append, baseline };
}

function report(synchronous: Sync, count: number, result: { append: number[]; baseline: number[] }): void {
  const line = (label: string, rates: readonly number[]): string =>
    `  ${label}`.padEnd(64) + `${fmt(Math.max(...rates))} best, ${fmt(median(rates))} median`.padStart(34);
  console.log(`${synchronous} (one per transaction: ${result.append.length} rounds of ${count.toLocaleString('en-US')})`);
  console.log(line('bare INSERT of pre-hashed rows (disk baseline)', result.baseline));
  console.log(line('AuditLog.append (validate, canonical JSON, SHA-256, chain check)', result.append));
  // With FULL both sides wait on the same fsync, whose jitter swamps the difference: no ratio there.
  if (synchronous === 'NORMAL') {
    console.log(`  audit log overhead vs baseline: ${((1 - median(result.append) / median(result.baseline)) * 100).toFixed(0)}% (medians)`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'jupbot-bench-'));
try {
  console.log(`audit log throughput, file databases in ${dir}, Node ${process.version}\n`);

  const calibration = [0, 1, 2].map((round) => calibrationRate(dir, round));
  console.log('host calibration (4-column autocommit insert, NORMAL; 95-98k/s when reference/dependencies.md was measured)');
  console.log(`  bare 4-column INSERT, autocommit`.padEnd(64) + `${fmt(Math.max(...calibration))} best, ${fmt(median(calibration))} median`.padStart(34));
  console.log();

  const memory = [memoryRate(20_000), memoryRate(20_000), memoryRate(20_000)];
  console.log('in-memory database (CPU only: no disk)');
  console.log(`  AuditLog.append, one per transaction`.padEnd(64) + `${fmt(Math.max(...memory))} best, ${fmt(median(memory))} median`.padStart(34));
  console.log();

  const normal = onePerTransaction(dir, 'NORMAL', 20_000, 5);
  report('NORMAL', 20_000, normal);
  for (const line of batchAndVerify(
    dir,
    'NORMAL',
    Array.from({ length: 1000 }, (_, i) => action(i)),
    100,
  ))
    console.log(line);

  console.log('\nsealed rows (NORMAL)');
  for (const line of sealedSwaps(dir, 20_000)) console.log(line);

  const full = onePerTransaction(dir, 'FULL', 2_000, 3);
  console.log();
  report('FULL', 2_000, full);
  for (const line of batchAndVerify(
    dir,
    'FULL',
    Array.from({ length: 1000 }, (_, i) => action(i)),
    20,
  ))
    console.log(line);

  const best = Math.max(...normal.append);
  console.log(
    `\none action per transaction with NORMAL: best ${fmt(best)}, median ${fmt(median(normal.append))}; ` +
      `target ${fmt(TARGET_PER_SECOND)} ${best >= TARGET_PER_SECOND ? 'met' : 'NOT met'}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
