/** `venue_idls`: Aggregator v6 venues learned from the program's on-chain IDL (migration 0006). */
import { z } from 'zod';
import type { Db } from './db.js';
import { parseRow } from './parseRows.js';
import { statement } from './statementCache.js';

export interface VenueIdlRecord {
  readonly program: string;
  readonly idlAddress: string;
  /** The program's deploy slot when the IDL was read; null when the node would not say. */
  readonly deploySlot: number | null;
  /** The IDL's `types`, parsed. */
  readonly types: unknown;
  readonly variants: number;
  readonly readAt: number;
}

const Row = z.object({
  program: z.string(),
  idl_address: z.string(),
  deploy_slot: z.number().int().nullable(),
  types: z.string(),
  variants: z.number().int(),
  read_at: z.number().int(),
});

export function saveVenueIdl(db: Db, record: VenueIdlRecord): void {
  statement(
    db,
    `INSERT INTO venue_idls (program, idl_address, deploy_slot, types, variants, read_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (program) DO UPDATE SET idl_address = excluded.idl_address, deploy_slot = excluded.deploy_slot,
       types = excluded.types, variants = excluded.variants, read_at = excluded.read_at`,
  ).run(record.program, record.idlAddress, record.deploySlot, JSON.stringify(record.types), record.variants, record.readAt);
}

export function loadVenueIdl(db: Db, program: string): VenueIdlRecord | null {
  const raw = statement(db, 'SELECT * FROM venue_idls WHERE program = ?').get(program);
  if (raw === undefined) return null;
  const row = parseRow(Row, raw, 'venue IDL');
  return {
    program: row.program,
    idlAddress: row.idl_address,
    deploySlot: row.deploy_slot,
    types: JSON.parse(row.types) as unknown,
    variants: row.variants,
    readAt: row.read_at,
  };
}
