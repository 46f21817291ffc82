import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ExitCode, NO_RESTART_EXIT_CODES } from '../../../src/exitCodes.js';

const unit = readFileSync(new URL('../../../deploy/jupbot.service', import.meta.url), 'utf8');
const setting = (key: string): string[] => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => (m[1] ?? '').trim());

describe('deploy/jupbot.service', () => {
  it('does not restart on exactly the exit codes a restart cannot fix, and restarts on a crash', () => {
    const prevented = (setting('RestartPreventExitStatus')[0] ?? '').split(/\s+/).map(Number);
    expect([...prevented].sort((a, b) => a - b)).toEqual([...NO_RESTART_EXIT_CODES].sort((a, b) => a - b));
    expect(prevented).not.toContain(ExitCode.Crashed);
    // A full disk may be freed without anyone touching jupbot: it is tried again.
    expect(prevented).not.toContain(ExitCode.StoreFull);
    expect(setting('Restart')).toEqual(['on-failure']);
  });

  it('is hardened and writes only the data directory', () => {
    expect([setting('NoNewPrivileges'), setting('ProtectSystem'), setting('PrivateTmp'), setting('ReadWritePaths'), setting('UMask')]).toEqual([
      ['true'],
      ['strict'],
      ['true'],
      ['/var/lib/jupbot'],
      ['0077'],
    ]);
  });

  it('gives the daemon a runtime directory for the wallet locks, shared by every unit and kept until reboot', () => {
    expect([setting('RuntimeDirectory'), setting('RuntimeDirectoryMode'), setting('RuntimeDirectoryPreserve')]).toEqual([['jupbot'], ['0700'], ['yes']]);
  });

  it('reads the key as a credential and owns its state directory, as docs/going-live.md says', () => {
    expect([setting('LoadCredential'), setting('StateDirectory'), setting('StateDirectoryMode'), setting('ProtectHome')]).toEqual([
      ['wallet-key:/etc/jupbot/wallet.json'],
      ['jupbot'],
      ['0700'],
      ['true'],
    ]);
    const doc = readFileSync(new URL('../../../docs/going-live.md', import.meta.url), 'utf8');
    expect(doc).toContain('LoadCredential=wallet-key:/etc/jupbot/wallet.json');
    expect(doc).toContain('keypair_file: ${CREDENTIALS_DIRECTORY}/wallet-key');
  });

  it('is the unit docs/operations.md describes, with the same list', () => {
    const doc = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    expect(doc).toContain('`deploy/jupbot.service` is the unit');
    expect(doc).toContain(`RestartPreventExitStatus=${NO_RESTART_EXIT_CODES.join(' ')}`);
  });
});
