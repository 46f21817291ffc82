/**
 * The effects check compares our accounts before with the simulation's after, so both must describe
 * the same state of the chain: a transfer that lands between the read and the simulation (the
 * owner spending from another device, a stranger paying in, a transaction of ours landing late)
 * would otherwise count as the transaction's own effect, refusing a sound transaction or hiding an
 * outflow behind an inflow.
 *
 * A node answers every read and every simulation with the slot of the bank it used, and at
 * `confirmed` a bank is frozen: two answers with one slot saw one state. So the accounts are read,
 * and the simulation is asked for on that slot or a later one (`minContextSlot`):
 *
 * - the same slot: one bank, the pair is consistent;
 * - a later slot: the accounts are read again, on the simulation's slot or later. Read on the
 *   simulation's slot, they are its state. Read later, and unchanged since the first read, they
 *   held that state at the simulation's slot too (to leave and come back to the very same state,
 *   something must leave our accounts, and only a transaction we signed can take it);
 * - otherwise our accounts moved during the check: the newest read is the next "before" and the
 *   transaction is simulated again, at most {@link MAX_SIMULATIONS} times, then the check gives up
 *   with `EFFECT_STATE_MOVED` — a refusal about the moment, built again on the next pass.
 */
import { GuardRefusal } from './guardRefusal.js';
import type { AccountState, SimulationResult, SolanaRpc } from './rpc.js';

export type SimulationRpc = Pick<SolanaRpc, 'getMultipleAccounts' | 'simulateTransaction'>;

/** Simulations one check asks for before it says the state would not hold still. */
export const MAX_SIMULATIONS = 3;

export interface ConsistentSimulation {
  /** The watched accounts in the state the simulation ran on. */
  readonly before: readonly (AccountState | null)[];
  readonly simulated: SimulationResult;
}

function sameAccount(a: AccountState | null, b: AccountState | null): boolean {
  if (a === null || b === null) return a === b;
  return a.lamports === b.lamports && a.owner === b.owner && a.executable === b.executable && a.data.equals(b.data);
}

/** The addresses whose state differs between two reads of `watched`. */
function moved(watched: readonly string[], first: readonly (AccountState | null)[], second: readonly (AccountState | null)[]): string[] {
  return watched.filter((_, i) => !sameAccount(first[i] ?? null, second[i] ?? null));
}

/**
 * Simulates `base64` and reads `watched` before it, both on one state of the chain (see above).
 * Rejects with a {@link GuardRefusal} `EFFECT_STATE_MOVED` when our accounts kept moving; RPC
 * errors (a node behind the slot asked for included) reach the caller as they are.
 */
export async function simulateConsistently(rpc: SimulationRpc, base64: string, watched: readonly string[]): Promise<ConsistentSimulation> {
  let read = await rpc.getMultipleAccounts(watched, 'confirmed');
  const slots = [read.slot];
  let changed: readonly string[];
  for (let simulations = 1; ; simulations += 1) {
    const simulated = await rpc.simulateTransaction(base64, { accounts: watched, commitment: 'confirmed', minContextSlot: read.slot });
    slots.push(simulated.slot);
    // A failed simulation is judged on its error alone: no "before" is needed.
    if (simulated.slot === read.slot || (simulated.err !== null && simulated.err !== undefined)) return { before: read.accounts, simulated };
    const again = await rpc.getMultipleAccounts(watched, 'confirmed', { minContextSlot: simulated.slot });
    slots.push(again.slot);
    if (again.slot === simulated.slot) return { before: again.accounts, simulated };
    changed = moved(watched, read.accounts, again.accounts);
    if (read.slot <= simulated.slot && simulated.slot <= again.slot && changed.length === 0) return { before: again.accounts, simulated };
    if (simulations >= MAX_SIMULATIONS) break;
    read = again;
  }
  throw new GuardRefusal(
    'EFFECT_STATE_MOVED',
    `our accounts kept changing while the transaction was simulated (${MAX_SIMULATIONS} simulations, slots ${slots.join(', ')}): ` +
      'what it would do cannot be told from what happened meanwhile; built again on the next pass',
    { slots, accounts: changed },
  );
}
