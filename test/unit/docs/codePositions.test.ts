import { describe, expect, it } from 'vitest';
import { codeUses } from './codePositions.js';

/** The codes found in one snippet, with their lines. */
const found = (text: string): string[] => codeUses([{ file: 'snippet.ts', text }]).map((use) => `${use.code}@${use.line}`);

describe('finding error codes by position', () => {
  it('finds a code thrown through an error class, literal or constant', () => {
    expect(
      found(
        [
          "throw new JupbotError('NOT_IN_CATALOGUE', 'x');",
          "const NOT_FOUND = 'ORDER_NOT_FOUND';",
          'throw new IntentRefusedError(NOT_FOUND, `gone`);',
          "class ThisError extends JupbotError { constructor() { super('OWN_CODE', 'm'); } }",
          "new GuardRefusal(ok ? 'FIRST_REASON' : 'SECOND_REASON', 'm');",
        ].join('\n'),
      ),
    ).toEqual(['NOT_IN_CATALOGUE@1', 'ORDER_NOT_FOUND@3', 'OWN_CODE@4', 'FIRST_REASON@5', 'SECOND_REASON@5']);
  });

  it('finds codes recorded, compared, returned, typed and passed to a helper that takes one', () => {
    expect(
      found(
        [
          "rows.push({ code: 'RECORDED_CODE', message });",
          "if (error.code === 'COMPARED_CODE') retry();",
          "switch (failure.reason) { case 'CASE_REASON': break; }",
          "function codeFor(status: number): JupiterErrorCode { return status > 500 ? 'SERVER_CODE' : 'OTHER_CODE'; }",
          "const STATUS: Record<number, JupiterErrorCode> = { 400: 'MAPPED_CODE' };",
          "function refused(code: 'TYPED_CODE' | 'ALSO_TYPED', message: string) {}",
          "refused('PASSED_CODE', 'm');",
          'type Refuse = (reason: RefusalReason) => never;',
          "function check(refuse: Refuse) { refuse('THROUGH_TYPE'); }",
        ].join('\n'),
      ),
    ).toEqual([
      'RECORDED_CODE@1',
      'COMPARED_CODE@2',
      'CASE_REASON@3',
      'SERVER_CODE@4',
      'OTHER_CODE@4',
      'MAPPED_CODE@5',
      'TYPED_CODE@6',
      'ALSO_TYPED@6',
      'PASSED_CODE@7',
      'THROUGH_TYPE@9',
    ]);
  });

  it('leaves alone upper-snake strings that are not codes', () => {
    expect(
      found(
        [
          "const KEY = 'CACHE_KEY';",
          'const cache = new Map<string, number>();',
          'cache.set(KEY, 1);',
          'const table = { [KEY]: 1 };',
          "const debug = process.env['JUPBOT_DEBUG'];",
          "const BUSY = new Set(['SQLITE_BUSY']);",
          "if (wallet.source === 'JUPBOT_KEYPAIR') say('from the environment');",
          "throw new JupbotError('REAL_CODE', 'm', { details: { env: 'JUPBOT_CONFIG' } });",
          "log.info({ mode: 'PAPER_MODE' }, 'started');",
        ].join('\n'),
      ),
    ).toEqual(['REAL_CODE@8']);
  });
});
