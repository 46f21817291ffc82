/** Our Trigger V2 vault: found, or registered on first use. */
import { TriggerApiError } from '../../../jupiter/errors.js';
import type { AuthedJupiterClient } from '../../../jupiter/transport.js';
import { existingVault, getVault, registerVault, type Vault } from '../../../jupiter/trigger.js';

/** A wallet's vault never changes once it exists: one look-up per client (per wallet login). */
const knownVaults = new WeakMap<AuthedJupiterClient, Vault>();

/** GET /vault; on 404 register it; a 409 from register (another caller won) carries the existing vault. */
export async function ensureVault(client: AuthedJupiterClient, signal?: AbortSignal): Promise<Vault> {
  const known = knownVaults.get(client);
  if (known) return known;
  const vault = await findOrRegisterVault(client, signal);
  knownVaults.set(client, vault);
  return vault;
}

async function findOrRegisterVault(client: AuthedJupiterClient, signal?: AbortSignal): Promise<Vault> {
  try {
    return await getVault(client, { signal });
  } catch (error) {
    if (!(error instanceof TriggerApiError) || error.code !== 'TRIGGER_VAULT_NOT_FOUND') throw error;
  }
  try {
    return await registerVault(client, { signal });
  } catch (error) {
    const existing = existingVault(error);
    if (existing) return existing;
    throw error;
  }
}
