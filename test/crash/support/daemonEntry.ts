/**
 * How the crash test starts `jupbot`. By default the working tree's src/cli/main.ts is bundled once
 * (esbuild, the transpiler tsx itself uses), its packages with it, and each restart runs the bundle
 * with plain node: on a loaded 2-core machine a tsx start costs 4–8 s of module loading, a bundled
 * one well under a second, and the crash tests start the daemon some seventy times. Node's own
 * loader resolving, reading and lexing the hundreds of files of @solana/web3.js, zod and the rest
 * was 40 % of each start's CPU; one file is read once. better-sqlite3 stays outside (a native addon
 * found beside its package), as do ws's optional native helpers. JUPBOT_CRASH_TSX=1 runs
 * `node --import tsx src/cli/main.ts` instead (what a developer runs from a checkout).
 *
 * A daemon's stack trace names the bundle's functions, not src/ lines: with --enable-source-maps,
 * the first error whose stack the daemon reads (its log scrubber reads every logged error's) made
 * node parse the whole map, a third of a second of each start. JUPBOT_CRASH_SOURCE_MAPS=1 maps
 * the traces to src/ again when one needs reading.
 *
 * The bundle is written to dist/crash/ (git-ignored) because the code finds package.json and
 * migrations/ at `../../` from its own file, and better-sqlite3 and uplot's files in the
 * repository's node_modules.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from '../../support/cli.js';

export interface DaemonEntry {
  /** node arguments before `run --config …`. */
  readonly args: readonly string[];
  /** Removes what was built (nothing for tsx). */
  dispose(): void;
}

export async function daemonEntry(env: Readonly<Record<string, string | undefined>> = process.env): Promise<DaemonEntry> {
  if (env.JUPBOT_CRASH_TSX === '1') return { args: ['--import', 'tsx', 'src/cli/main.ts'], dispose: () => undefined };
  const dir = join(repoRoot, 'dist', 'crash');
  const outfile = join(dir, `main-${process.pid}.mjs`);
  const sourceMaps = env.JUPBOT_CRASH_SOURCE_MAPS === '1';
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [join(repoRoot, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'bufferutil', 'utf-8-validate'],
    // The packages' CommonJS `require` calls, run inside an ES module.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    sourcemap: sourceMaps ? 'inline' : false,
    outfile,
    logLevel: 'warning',
  });
  return { args: sourceMaps ? ['--enable-source-maps', outfile] : [outfile], dispose: () => rmSync(outfile, { force: true }) };
}
