import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INSTANCE_ID_FILE, instanceId } from '../../../src/store/instanceId.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'jupbot-instance-'));
  dirs.push(d);
  return d;
}

describe('the instance id', () => {
  it('is made once (16 hex digits, mode 0600) and read back at every later start', () => {
    const d = dir();
    const id = instanceId(d);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(readFileSync(join(d, INSTANCE_ID_FILE), 'utf8')).toBe(`${id}\n`);
    expect(statSync(join(d, INSTANCE_ID_FILE)).mode & 0o777).toBe(0o600);
    expect(instanceId(d)).toBe(id);
    expect(instanceId(dir())).not.toBe(id);
  });

  it("may be a name of the operator's; anything else in the file is refused, naming the file", () => {
    const d = dir();
    writeFileSync(join(d, INSTANCE_ID_FILE), 'host-a.eu_1\n');
    expect(instanceId(d)).toBe('host-a.eu_1');
    writeFileSync(join(d, INSTANCE_ID_FILE), 'host a\n');
    expect(() => instanceId(d)).toThrow(
      expect.objectContaining({
        code: 'STORE_INSTANCE_ID_INVALID',
        message: `${join(d, INSTANCE_ID_FILE)} does not hold an instance id (1 to 64 letters, digits, ".", "_" or "-"; found "host a"): fix it, or delete it and a new one is made at the next start`,
      }),
    );
  });
});
