/**
 * Decodes the instructions of the programs the guard understands (System, SPL Token, Token-2022,
 * Associated Token, Compute Budget, Memo) from their documented byte layouts into effects: who sends
 * what to whom. Anything that could hand control of our funds to someone else (approvals, authority
 * changes, burns, account reassignment) is refused here, whatever the intent. Instructions of opaque
 * programs (Jupiter's) become `opaque` effects that the intent policy constrains.
 *
 * Layouts: System instructions start with a u32 LE index; SPL Token's with a u8 (Token-2022 shares
 * the base layouts); amounts are u64 LE.
 */
import { GuardRefusal } from './guardRefusal.js';
import {
  ASSOCIATED_TOKEN_PROGRAM,
  COMPUTE_BUDGET_PROGRAM,
  MEMO_PROGRAM,
  MEMO_V1_PROGRAM,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from './programIds.js';
import type { ResolvedInstruction } from './resolveAccounts.js';

export type Effect =
  | { readonly type: 'sol-transfer'; readonly from: string; readonly to: string; readonly lamports: bigint }
  | {
      readonly type: 'token-transfer';
      readonly tokenProgram: string;
      readonly source: string;
      readonly dest: string;
      readonly authority: string;
      readonly mint: string | null;
      readonly amount: bigint;
    }
  | { readonly type: 'ata-create'; readonly payer: string; readonly owner: string; readonly mint: string; readonly tokenProgram: string }
  | { readonly type: 'close-account'; readonly account: string; readonly dest: string; readonly owner: string }
  | { readonly type: 'compute-unit-limit'; readonly units: number }
  | { readonly type: 'compute-unit-price'; readonly microLamports: bigint }
  | { readonly type: 'memo' }
  | { readonly type: 'harmless'; readonly what: string }
  | { readonly type: 'opaque'; readonly program: string };

const SYSTEM = SYSTEM_PROGRAM.toBase58();
const TOKEN = TOKEN_PROGRAM.toBase58();
const TOKEN_2022 = TOKEN_2022_PROGRAM.toBase58();
const ATA = ASSOCIATED_TOKEN_PROGRAM.toBase58();
const COMPUTE_BUDGET = COMPUTE_BUDGET_PROGRAM.toBase58();
const MEMOS = new Set([MEMO_PROGRAM.toBase58(), MEMO_V1_PROGRAM.toBase58()]);

export const isMemoProgram = (program: string): boolean => MEMOS.has(program);

function view(ix: ResolvedInstruction): DataView {
  return new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
}

function malformed(ix: ResolvedInstruction, what: string): GuardRefusal {
  return new GuardRefusal('MALFORMED_TRANSACTION', `instruction ${ix.index} (${what}) is too short or lacks accounts`, {
    instruction: ix.index,
    program: ix.program,
  });
}

function account(ix: ResolvedInstruction, i: number, what: string): string {
  const meta = ix.accounts[i];
  if (!meta) throw malformed(ix, what);
  return meta.address;
}

function u64(ix: ResolvedInstruction, offset: number, what: string): bigint {
  if (ix.data.byteLength < offset + 8) throw malformed(ix, what);
  return view(ix).getBigUint64(offset, true);
}

/** The effect of one instruction, or a refusal when it is never acceptable. */
export function decodeEffect(ix: ResolvedInstruction, wallet: string): Effect {
  if (ix.program === SYSTEM) return systemEffect(ix, wallet);
  if (ix.program === TOKEN || ix.program === TOKEN_2022) return tokenEffect(ix, wallet);
  if (ix.program === ATA) return ataEffect(ix);
  if (ix.program === COMPUTE_BUDGET) return computeBudgetEffect(ix);
  if (MEMOS.has(ix.program)) return { type: 'memo' };
  return { type: 'opaque', program: ix.program };
}

const SYSTEM_NAMES: Record<number, string> = {
  0: 'CreateAccount',
  1: 'Assign',
  3: 'CreateAccountWithSeed',
  4: 'AdvanceNonceAccount',
  5: 'WithdrawNonceAccount',
  6: 'InitializeNonceAccount',
  7: 'AuthorizeNonceAccount',
  8: 'Allocate',
  9: 'AllocateWithSeed',
  10: 'AssignWithSeed',
  11: 'TransferWithSeed',
  12: 'UpgradeNonceAccount',
};

function systemEffect(ix: ResolvedInstruction, wallet: string): Effect {
  if (ix.data.byteLength < 4) throw malformed(ix, 'System');
  const kind = view(ix).getUint32(0, true);
  if (kind === 2) {
    return { type: 'sol-transfer', from: account(ix, 0, 'System Transfer'), to: account(ix, 1, 'System Transfer'), lamports: u64(ix, 4, 'System Transfer') };
  }
  const name = SYSTEM_NAMES[kind] ?? `instruction ${kind}`;
  // Assign/Allocate on our own account would hand it to another program or brick it.
  if ([1, 8, 9, 10].includes(kind) && ix.accounts.some((a) => a.address === wallet)) {
    throw new GuardRefusal('ACCOUNT_REASSIGN', `System ${name} on our wallet account`, { instruction: ix.index, instructionName: name });
  }
  // Only plain transfers are ever needed at top level; account creation happens inside the ATA program.
  throw new GuardRefusal('INSTRUCTION_NOT_ALLOWED', `System ${name} is not something jupbot signs`, {
    instruction: ix.index,
    program: ix.program,
    instructionName: name,
  });
}

function tokenEffect(ix: ResolvedInstruction, wallet: string): Effect {
  const kind = ix.data[0];
  if (kind === undefined) throw malformed(ix, 'Token');
  switch (kind) {
    case 3: // Transfer { amount } — [source, dest, authority]
      return {
        type: 'token-transfer',
        tokenProgram: ix.program,
        source: account(ix, 0, 'Transfer'),
        dest: account(ix, 1, 'Transfer'),
        authority: account(ix, 2, 'Transfer'),
        mint: null,
        amount: u64(ix, 1, 'Transfer'),
      };
    case 12: // TransferChecked { amount, decimals } — [source, mint, dest, authority]
      return {
        type: 'token-transfer',
        tokenProgram: ix.program,
        source: account(ix, 0, 'TransferChecked'),
        mint: account(ix, 1, 'TransferChecked'),
        dest: account(ix, 2, 'TransferChecked'),
        authority: account(ix, 3, 'TransferChecked'),
        amount: u64(ix, 1, 'TransferChecked'),
      };
    case 4: // Approve
    case 13: // ApproveChecked
      throw new GuardRefusal('DELEGATE_APPROVAL', `Token ${kind === 4 ? 'Approve' : 'ApproveChecked'} would let another key spend from a token account`, {
        instruction: ix.index,
        delegate: account(ix, kind === 4 ? 1 : 2, 'Approve'),
      });
    case 6: // SetAuthority
      throw new GuardRefusal('AUTHORITY_CHANGE', 'Token SetAuthority would change who controls an account or mint', {
        instruction: ix.index,
        account: account(ix, 0, 'SetAuthority'),
      });
    case 8: // Burn
    case 15: // BurnChecked
      throw new GuardRefusal('TOKEN_BURN', 'Token Burn destroys tokens', { instruction: ix.index, account: account(ix, 0, 'Burn') });
    case 9: // CloseAccount — [account, destination, owner]
      return { type: 'close-account', account: account(ix, 0, 'CloseAccount'), dest: account(ix, 1, 'CloseAccount'), owner: account(ix, 2, 'CloseAccount') };
    case 1: // InitializeAccount
    case 16: // InitializeAccount2
    case 18: // InitializeAccount3
      return { type: 'harmless', what: 'InitializeAccount' };
    case 5: // Revoke: removes a delegate, only ever safer.
      return { type: 'harmless', what: 'Revoke' };
    case 17: // SyncNative: updates a wrapped-SOL balance.
      return { type: 'harmless', what: 'SyncNative' };
    default: {
      // MintTo, Freeze/Thaw, multisig set-up, Token-2022 extensions: nothing a trade needs.
      const involvesUs = ix.accounts.some((a) => a.address === wallet);
      throw new GuardRefusal('INSTRUCTION_NOT_ALLOWED', `Token instruction ${kind} is not something jupbot signs`, {
        instruction: ix.index,
        program: ix.program,
        tokenInstruction: kind,
        involvesWallet: involvesUs,
      });
    }
  }
}

function ataEffect(ix: ResolvedInstruction): Effect {
  const kind = ix.data.byteLength === 0 ? 0 : ix.data[0];
  if (kind !== 0 && kind !== 1) {
    throw new GuardRefusal('INSTRUCTION_NOT_ALLOWED', `Associated Token instruction ${kind} (RecoverNested or unknown) is not something jupbot signs`, {
      instruction: ix.index,
      program: ix.program,
    });
  }
  // Create / CreateIdempotent — [payer, ata, owner, mint, system, tokenProgram]; the program checks the address.
  return {
    type: 'ata-create',
    payer: account(ix, 0, 'ATA Create'),
    owner: account(ix, 2, 'ATA Create'),
    mint: account(ix, 3, 'ATA Create'),
    tokenProgram: account(ix, 5, 'ATA Create'),
  };
}

function computeBudgetEffect(ix: ResolvedInstruction): Effect {
  const kind = ix.data[0];
  if (kind === 2) {
    if (ix.data.byteLength < 5) throw malformed(ix, 'SetComputeUnitLimit');
    return { type: 'compute-unit-limit', units: view(ix).getUint32(1, true) };
  }
  if (kind === 3) return { type: 'compute-unit-price', microLamports: u64(ix, 1, 'SetComputeUnitPrice') };
  if (kind === 1 || kind === 4) return { type: 'harmless', what: kind === 1 ? 'RequestHeapFrame' : 'SetLoadedAccountsDataSizeLimit' };
  throw new GuardRefusal('INSTRUCTION_NOT_ALLOWED', `Compute Budget instruction ${String(kind)} is not something jupbot signs`, {
    instruction: ix.index,
    program: ix.program,
  });
}
