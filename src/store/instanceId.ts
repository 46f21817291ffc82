/**
 * The daemon's instance id: a name for one data directory's daemon, generated once and kept in
 * `<data_dir>/instance-id`, so that two jupbots on one wallet (on two hosts, or two containers with
 * different lock directories) can be told apart in their logs, their audit logs and their alerts.
 *
 * It is a label, not a secret, and no Jupiter API carries it: Trigger V2 orders, swaps and prediction
 * orders have no client field that history gives back, so what is ours is decided by the journal
 * (engine/sharing/). An operator may write a name of their own into the file (`host-a`).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from './errors.js';

export const INSTANCE_ID_FILE = 'instance-id';

const VALID = /^[A-Za-z0-9._-]{1,64}$/;

function isCode(error: unknown, code: string): boolean {
  return (error as { code?: unknown } | null)?.code === code;
}

function read(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return null;
    throw error;
  }
  const id = text.trim();
  if (!VALID.test(id)) {
    throw new StoreError(
      'STORE_INSTANCE_ID_INVALID',
      `${file} does not hold an instance id (1 to 64 letters, digits, ".", "_" or "-"; found ${JSON.stringify(id.slice(0, 80))}): fix it, or delete it and a new one is made at the next start`,
      { details: { file } },
    );
  }
  return id;
}

/**
 * The instance id of the daemon of `dataDir` (which must exist): read from its file, or made (16
 * random hex digits) and written there (0600, never over an existing file) on the first start.
 * File system errors are thrown as they are, for storeFailure() to name.
 */
export function instanceId(dataDir: string): string {
  const file = join(dataDir, INSTANCE_ID_FILE);
  const known = read(file);
  if (known !== null) return known;
  const made = randomBytes(8).toString('hex');
  try {
    writeFileSync(file, `${made}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // Written meanwhile (only by hand: the data directory's lock is held): that one holds.
    if (isCode(error, 'EEXIST')) return read(file) ?? made;
    throw error;
  }
  return made;
}
