import { existsSync, readFileSync } from 'node:fs';

/**
 * The nearest package.json above this module, read at runtime: src/ (tsx), dist/ (the build) and
 * the crash test's bundle sit at different depths below the root, and all report the same version.
 */
function readManifest(): { version: string } {
  for (let url = new URL('./package.json', import.meta.url); ; url = new URL('../package.json', url)) {
    if (existsSync(url)) return JSON.parse(readFileSync(url, 'utf8')) as { version: string };
    if (url.pathname === '/package.json') throw new Error(`no package.json above ${import.meta.url}`);
  }
}

/** jupbot's version, from package.json. */
export const version: string = readManifest().version;
