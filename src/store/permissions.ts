/**
 * What of the data directory others can read: the journal and audit log hold every trade, so a
 * directory wider than 0700 or a database file wider than 0600 is worth a warning at start (new ones
 * are created that tight whatever the umask; existing ones are the operator's to change).
 */
import { existsSync, statSync } from 'node:fs';

export function widerThanPrivate(dir: string, file: string): string[] {
  const found: string[] = [];
  const check = (path: string, limit: number): void => {
    if (!existsSync(path)) return;
    const mode = statSync(path).mode & 0o777;
    if ((mode & ~limit) !== 0)
      found.push(`${path} is mode ${mode.toString(8).padStart(4, '0')} (readable by others; chmod ${limit.toString(8).padStart(4, '0')} it)`);
  };
  check(dir, 0o700);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) check(f, 0o600);
  return found;
}
