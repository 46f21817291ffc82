/**
 * docs/operations.md's table of exit codes against src/exitCodes.ts: every code the command can end
 * with has its row, and every row is a code (scripts and units key on the numbers).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/exitCodes.js';
import { repoRoot } from '../../support/cli.js';

const doc = readFileSync(join(repoRoot, 'docs', 'operations.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Exit codes'), doc.indexOf('## Error codes'));
const rows = [...section.matchAll(/^\| (\d+) \| (.*)$/gm)].map((m) => ({ code: Number(m[1]), text: m[2] as string }));

describe("docs/operations.md's exit codes", () => {
  it('has one row per exit code, and no other', () => {
    expect(rows.map((r) => r.code).sort((a, b) => a - b)).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
  });

  it('names the error codes behind 78 and 79, and what to run', () => {
    const text = (code: number): string => rows.find((r) => r.code === code)?.text ?? '';
    expect(text(ExitCode.PortInUse)).toContain('`OPS_PORT_IN_USE`');
    expect(text(ExitCode.PreflightRequired)).toContain('`PREFLIGHT_REQUIRED`');
    expect(text(ExitCode.PreflightRequired)).toContain('jupbot live check --config FILE');
  });
});
