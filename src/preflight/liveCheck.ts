/**
 * `jupbot live check`: everything a first live start depends on, checked in one go before it, each
 * as one line, and the verdict recorded in the live database's audit log (`preflight.passed` or
 * `preflight.failed`, with the start's fingerprint, the config file's hash and every line). The
 * daemon's start reads that verdict (startGate.ts).
 *
 * The data directory is locked for the whole check: the verdict is written to the journal a daemon
 * on that directory would be writing, so a running daemon makes the check end at once (exit 73).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Clock } from '../clock.js';
import type { CliContext } from '../cli/context.js';
import type { Config } from '../config/config.js';
import { createJupiterClient, type JupiterClient } from '../jupiter/transport.js';
import { configRedactor } from '../ops/configRedactor.js';
import type { Redactor } from '../ops/redact.js';
import { createRandom } from '../random.js';
import { createSolanaRpc } from '../solana/rpc.js';
import { AuditLog } from '../store/audit.js';
import { lockDataDir } from '../store/dataDirLock.js';
import { openStore } from '../store/migrate.js';
import { databaseFile } from '../store/paths.js';
import { storeFailure } from '../store/storeFailure.js';
import type { CheckLine } from './checkLine.js';
import { dataDirCheck, keyCheck, opsPortCheck } from './localChecks.js';
import { apiKeyChecks, fundsCheck, rpcCheck } from './networkChecks.js';
import { fingerprintHash, startFingerprint } from './startFingerprint.js';
import { readStrategies, strategyChecks } from './strategyChecks.js';

export interface LiveCheckResult {
  readonly lines: readonly CheckLine[];
  /** Every problem of a failed strategy file, `file:line:col: message`. */
  readonly details: readonly string[];
  readonly passed: boolean;
  /** The database the verdict was recorded in. */
  readonly database: string;
}

function apiClient(config: Config, ctx: CliContext, redactor: Redactor): JupiterClient | null {
  const key = config.api.key?.reveal();
  if (key === undefined && !config.api.keyless) return null;
  return createJupiterClient({
    baseUrl: config.api.base_url,
    apiKey: key,
    requestsPerSecond: config.api.requests_per_second,
    clock: ctx.clock,
    random: createRandom(),
    timeoutMs: config.api.timeout,
    // One try per call: a person is waiting, and a failure is theirs to read.
    maxReadAttempts: 1,
    redactor,
    ...(ctx.network ? { fetch: ctx.network } : {}),
  });
}

/** Runs every check of a live config; writes the verdict to its database. */
export async function liveCheck(config: Config, ctx: CliContext): Promise<LiveCheckResult> {
  const redactor = configRedactor(config);
  const database = databaseFile(config.data_dir, config.mode);
  let lock: { release(): void };
  try {
    mkdirSync(config.data_dir, { recursive: true, mode: 0o700 });
    lock = lockDataDir(config.data_dir);
  } catch (error) {
    throw storeFailure(error, config.data_dir);
  }
  try {
    const network = ctx.network ?? globalThis.fetch;
    const lines: CheckLine[] = [dataDirCheck(config, database)];
    const key = await keyCheck(config, redactor);
    lines.push(key.line, await opsPortCheck(config));
    const client = apiClient(config, ctx, redactor);
    try {
      const strategies = await readStrategies(config, ctx.cwd);
      lines.push(...(await apiKeyChecks(config, client, strategies.needs, key.address)));
      const rpc = createSolanaRpc({ url: config.rpc.url, clock: ctx.clock, redactor, fetch: network });
      lines.push(await rpcCheck(config, rpc, network));
      const checked = await strategyChecks(config, ctx, strategies, client);
      if (key.address !== null) lines.push(await fundsCheck(rpc, key.address, checked.symbols));
      lines.push(...checked.lines);
      const passed = lines.every((line) => line.ok);
      record(database, config, key.address, lines, passed, ctx.clock, redactor);
      return { lines, details: checked.details, passed, database };
    } finally {
      client?.close();
    }
  } finally {
    lock.release();
  }
}

/** `preflight.passed` or `preflight.failed` in the live database's audit log. */
function record(database: string, config: Config, wallet: string | null, lines: readonly CheckLine[], passed: boolean, clock: Clock, redactor: Redactor): void {
  const { db } = openStore(database, { clock });
  try {
    const fingerprint = wallet === null ? null : startFingerprint(config, wallet);
    new AuditLog(db, clock).append({
      kind: passed ? 'preflight.passed' : 'preflight.failed',
      data: {
        config: config.source.file,
        configSha256: createHash('sha256').update(readFileSync(config.source.file)).digest('hex'),
        fingerprint: fingerprint === null ? null : { ...fingerprint },
        fingerprintHash: fingerprint === null ? null : fingerprintHash(fingerprint),
        failed: lines.filter((l) => !l.ok).map((l) => l.check),
        checks: lines.map((l) => ({ check: l.check, ok: l.ok, detail: redactor.scrubText(l.detail) })),
      },
    });
  } finally {
    db.close();
  }
}
