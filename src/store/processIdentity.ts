/**
 * Who a pid is, for lock files: a pid alone does not name a process. After a reboot, or after
 * enough processes have come and gone, the pid in a lock belongs to something else, and a lock
 * that trusted it would block every start. So a lock also records the boot it was taken in and
 * when its process started; a lock from another boot, or whose pid now runs a process that started
 * at another time, is stale.
 *
 * Linux says both in /proc: `/proc/sys/kernel/random/boot_id` (a UUID drawn at each boot) and field
 * 22 of `/proc/<pid>/stat` (the process's start, in clock ticks after boot). Elsewhere (macOS, the
 * BSDs) neither is read and both are null: a lock is then stale only when its pid is gone. Unknown
 * never makes a lock stale, because a live lock wrongly taken over doubles every order, while a
 * stale one wrongly kept costs a person one `rm` of a file the refusal names.
 */
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  /** This boot's id; null where the system does not say. */
  bootId(): string | null;
  /** When `pid` started, in the system's own units; null when unknown (gone, or not Linux). */
  startTime(pid: number): string | null;
  /** Whether a process with this pid exists (under any user). */
  alive(pid: number): boolean;
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Field 22 of a `/proc/<pid>/stat` line. The command (field 2) is in parentheses and may hold spaces and parentheses. */
export function startTimeOfStat(stat: string): string | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 3… follow the command: field 22 is the 20th of them.
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? start : null;
}

export const systemIdentity: ProcessIdentity = {
  bootId() {
    const id = readText('/proc/sys/kernel/random/boot_id')?.trim();
    return id ? id : null;
  },
  startTime(pid) {
    const stat = readText(`/proc/${pid}/stat`);
    return stat === null ? null : startTimeOfStat(stat);
  },
  alive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // EPERM: the process exists under another user.
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
};
