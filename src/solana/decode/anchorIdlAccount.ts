/**
 * Where an Anchor program publishes its IDL on chain, and how to read it. The account's address is
 * derived from the program id alone: `createWithSeed(findProgramAddress([], program), "anchor:idl",
 * program)`. Its data is Anchor's `IdlAccount`: the 8-byte account discriminator
 * (sha256("account:IdlAccount")), the 32-byte authority, a u32 length, then that many bytes of
 * zlib-deflated JSON. The program's own account (BPF upgradeable loader) names its program-data
 * account, whose header holds the slot the program was last deployed at.
 */
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { PublicKey } from '@solana/web3.js';

const IDL_ACCOUNT_DISCRIMINATOR = createHash('sha256').update('account:IdlAccount').digest().subarray(0, 8);
const HEADER = 8 + 32 + 4;
/** An IDL larger than this once inflated is not read (the real one is a few hundred KiB). */
const MAX_IDL_BYTES = 8 * 1024 * 1024;
/** The BPF upgradeable loader's account tags: `Program` names its data account, `ProgramData` holds the deploy slot. */
const PROGRAM_TAG = 2;
const PROGRAM_DATA_TAG = 3;

export class IdlAccountError extends Error {
  override name = 'IdlAccountError';
}

/** The address of `program`'s Anchor IDL account. */
export function anchorIdlAddress(program: PublicKey): PublicKey {
  const [base] = PublicKey.findProgramAddressSync([], program);
  // createWithSeed is sha256(base || seed || owner), here with the program as the owner.
  return new PublicKey(
    createHash('sha256')
      .update(Buffer.concat([base.toBuffer(), Buffer.from('anchor:idl'), program.toBuffer()]))
      .digest(),
  );
}

/** The IDL an `IdlAccount` holds, parsed; throws {@link IdlAccountError} saying what is wrong with it. */
export function decodeIdlAccount(data: Uint8Array): unknown {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length < HEADER) throw new IdlAccountError(`the IDL account holds ${bytes.length} bytes, less than its ${HEADER}-byte header`);
  if (!bytes.subarray(0, 8).equals(IDL_ACCOUNT_DISCRIMINATOR)) throw new IdlAccountError('the account is not an Anchor IDL account (wrong discriminator)');
  const length = bytes.readUInt32LE(40);
  if (HEADER + length > bytes.length)
    throw new IdlAccountError(`the IDL account says its IDL is ${length} bytes, but only ${bytes.length - HEADER} follow its header (truncated)`);
  let json: Buffer;
  try {
    json = inflateSync(bytes.subarray(HEADER, HEADER + length), { maxOutputLength: MAX_IDL_BYTES });
  } catch (error) {
    throw new IdlAccountError(`the IDL does not inflate: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return JSON.parse(json.toString('utf8')) as unknown;
  } catch {
    throw new IdlAccountError('the IDL is not JSON');
  }
}

/** The program-data account a BPF upgradeable program's account names, or null for another kind of account. */
export function programDataAddress(programAccount: Uint8Array): PublicKey | null {
  const bytes = Buffer.from(programAccount.buffer, programAccount.byteOffset, programAccount.byteLength);
  if (bytes.length < 36 || bytes.readUInt32LE(0) !== PROGRAM_TAG) return null;
  return new PublicKey(bytes.subarray(4, 36));
}

/** The slot a program-data account says the program was last deployed at, or null. */
export function deploySlot(programData: Uint8Array): number | null {
  const bytes = Buffer.from(programData.buffer, programData.byteOffset, programData.byteLength);
  if (bytes.length < 12 || bytes.readUInt32LE(0) !== PROGRAM_DATA_TAG) return null;
  const slot = bytes.readBigUInt64LE(4);
  return slot <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(slot) : null;
}
