/**
 * Each test worker gets a lock directory of its own. The daemon takes a per-wallet lock in
 * `lock_dir` (default: `$RUNTIME_DIRECTORY`, …, `/tmp/jupbot-<uid>`), and test files in parallel
 * workers may start daemons on the same seed-derived wallet: sharing one directory, one would refuse
 * to start (`WALLET_IN_USE`). Workers are separate processes (`pool: 'forks'`), and the daemons a
 * test spawns inherit the variable. A test that is about the lock sets `lock_dir` itself.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (process.env['JUPBOT_TEST_LOCK_DIR'] === undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-test-locks-'));
  process.env['JUPBOT_TEST_LOCK_DIR'] = dir;
  process.env['RUNTIME_DIRECTORY'] = dir;
}
