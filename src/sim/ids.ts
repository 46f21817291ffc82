import bs58 from 'bs58';
import type { Random } from '../random.js';

/** Identifiers drawn from a seeded stream, so two runs with one seed hand out the same ids. */
export class IdSource {
  constructor(private readonly random: Random) {}

  /** An RFC 4122 v4-shaped UUID. */
  uuid(): string {
    const b = this.random.bytes(16);
    b[6] = ((b[6] as number) & 0x0f) | 0x40;
    b[8] = ((b[8] as number) & 0x3f) | 0x80;
    const h = Buffer.from(b).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  hex(bytes: number): string {
    return Buffer.from(this.random.bytes(bytes)).toString('hex');
  }

  /** A base58 string of `bytes` random bytes (32 for an address, 64 for a signature). */
  base58(bytes = 32): string {
    return bs58.encode(this.random.bytes(bytes));
  }
}
