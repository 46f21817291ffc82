import { isAbsolute, join, resolve } from 'node:path';

/**
 * Turns a path as written in a YAML file into an absolute one: `~` and `~/…` go to `home`, and a
 * relative path is taken from `baseDir`, the directory of the file it was written in, so a
 * config means the same thing whatever directory the daemon is started from.
 *
 * `home` comes from the caller (the environment given to the loader), never from the process,
 * so tests control it. It must be set when the path starts with `~` (configRules reports that).
 */
export function expandPath(path: string, baseDir: string, home: string | undefined): string {
  if (path === '~' || path.startsWith('~/')) {
    if (home === undefined || home.trim() === '') throw new Error(`cannot expand ${path}: HOME is not set`);
    return join(resolve(home), path.slice(1));
  }
  return isAbsolute(path) ? resolve(path) : resolve(baseDir, path);
}
