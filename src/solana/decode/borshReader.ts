/**
 * A strict little-endian Borsh reader for instruction data. Every read is bounds-checked, and
 * {@link BorshReader.end} insists that nothing is left over: a decoder that stops early would let
 * trailing bytes hide what the program really reads.
 */
export class BorshError extends Error {
  override name = 'BorshError';
}

export class BorshReader {
  #offset: number;
  readonly #view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
  ) {
    this.#offset = offset;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get offset(): number {
    return this.#offset;
  }

  get remaining(): number {
    return this.bytes.byteLength - this.#offset;
  }

  #take(n: number, what: string): number {
    if (this.#offset + n > this.bytes.byteLength)
      throw new BorshError(`data ends at byte ${this.bytes.byteLength} while reading ${what} at byte ${this.#offset}`);
    const at = this.#offset;
    this.#offset += n;
    return at;
  }

  u8(what = 'u8'): number {
    return this.#view.getUint8(this.#take(1, what));
  }

  u16(what = 'u16'): number {
    return this.#view.getUint16(this.#take(2, what), true);
  }

  u32(what = 'u32'): number {
    return this.#view.getUint32(this.#take(4, what), true);
  }

  u64(what = 'u64'): bigint {
    return this.#view.getBigUint64(this.#take(8, what), true);
  }

  i64(what = 'i64'): bigint {
    return this.#view.getBigInt64(this.#take(8, what), true);
  }

  /** Steps over `n` bytes of a fixed-size value whose content does not matter here. */
  skip(n: number, what = 'bytes'): void {
    this.#take(n, what);
  }

  bool(what = 'bool'): boolean {
    const value = this.u8(what);
    if (value > 1) throw new BorshError(`${what} is ${value}, not a bool`);
    return value === 1;
  }

  /** A u32-length-prefixed UTF-8 string, at most `max` bytes (a hostile length must not allocate). */
  string(what = 'string', max = 1_024): string {
    const length = this.u32(`${what} length`);
    if (length > max) throw new BorshError(`${what} is ${length} bytes long, more than ${max}`);
    const at = this.#take(length, what);
    return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(at, at + length));
  }

  /** A u32-length-prefixed byte string of at most `max` bytes. */
  byteString(what = 'bytes', max = 1_024): Uint8Array {
    const length = this.u32(`${what} length`);
    if (length > max) throw new BorshError(`${what} is ${length} bytes long, more than ${max}`);
    const at = this.#take(length, what);
    return this.bytes.subarray(at, at + length);
  }

  option<T>(read: () => T, what = 'option'): T | null {
    const tag = this.u8(`${what} tag`);
    if (tag === 0) return null;
    if (tag !== 1) throw new BorshError(`${what} has option tag ${tag}`);
    return read();
  }

  /** A u32-length-prefixed vector of at most `max` items. */
  vec<T>(read: (index: number) => T, what = 'vec', max = 64): T[] {
    const length = this.u32(`${what} length`);
    if (length > max) throw new BorshError(`${what} has ${length} items, more than ${max}`);
    return Array.from({ length }, (_, i) => read(i));
  }

  /** Fails unless every byte was read. */
  end(what: string): void {
    if (this.remaining !== 0) throw new BorshError(`${what} carries ${this.remaining} byte(s) after its last field`);
  }
}
