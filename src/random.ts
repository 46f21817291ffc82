import { randomBytes } from 'node:crypto';

/**
 * The only source of randomness in jupbot (jitter, simulator walks, ids in paper mode).
 * Seeded, so a paper run or a failing test can be replayed exactly.
 */
export interface Random {
  /** The seed this source was built from; log it so a run can be replayed. */
  readonly seed: string;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** `n` random bytes. */
  bytes(n: number): Uint8Array;
}

/** cyrb128: spreads a string seed over four 32-bit words, so similar seeds give unrelated streams. */
function hashSeed(seed: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/**
 * A seeded source (sfc32: small, fast, passes PractRand; not for keys — keys come from
 * the wallet module's CSPRNG). Without a seed, one is drawn from the OS and reported in `seed`.
 */
export function createRandom(seed?: string | number): Random {
  const seedText = seed === undefined ? Buffer.from(randomBytes(8)).toString('hex') : String(seed);
  let [a, b, c, d] = hashSeed(seedText);
  const nextUint32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // Discard the first outputs: sfc32's early values still echo the seed words.
  for (let i = 0; i < 15; i++) nextUint32();
  return {
    seed: seedText,
    next: () => nextUint32() / 4294967296,
    int(min, max) {
      if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
        throw new RangeError(`Random.int expects integers min <= max, got ${min}, ${max}`);
      }
      return min + Math.floor((nextUint32() / 4294967296) * (max - min + 1));
    },
    bytes(n) {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = nextUint32() & 0xff;
      return out;
    },
  };
}
