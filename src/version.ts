import { readFileSync } from 'node:fs';

// Read at runtime so dist/ and src/ (both one level below the root) report the same version.
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** jupbot's version, from package.json. */
export const version: string = manifest.version;
