/**
 * How the crash test starts `jupbot`. By default the working tree's src/cli/main.ts is bundled once
 * (esbuild, the transpiler tsx itself uses; packages stay external) and each restart runs the
 * bundle with plain node: on a loaded 2-core machine a tsx start costs 4–8 s of module loading, a
 * bundled one about a second, and the test restarts the daemon 51 times. JUPBOT_CRASH_TSX=1 runs
 * `node --import tsx src/cli/main.ts` instead (what a developer runs from a checkout).
 *
 * The bundle is written to dist/crash/ (git-ignored) because the code finds package.json and
 * migrations/ at `../../` from its own file, and its packages in the repository's node_modules.
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
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [join(repoRoot, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    outfile,
    logLevel: 'warning',
  });
  return { args: ['--enable-source-maps', outfile], dispose: () => rmSync(outfile, { force: true }) };
}
