/**
 * The table of `Swap` variants a route plan is walked with: the bundled one (the public IDLs'
 * venues), optionally extended by an IDL of the program (its on-chain IDL account, or a file given
 * to `tx explain --idl`). Jupiter adds venues faster than any release, so the table learns them; but
 * an IDL only ever adds indices past the bundled ones. One that is missing, malformed, shorter than
 * the bundled table or at odds with it at an index both know changes nothing, and says why, so a bad
 * IDL can neither shrink the table nor change how a known venue is read.
 */
import type { BorshReader } from './borshReader.js';
import { IdlTypeCompiler, IdlTypeError, type IdlTypeDef, type IdlVariant, type Skip } from './idlTypes.js';
import { BUNDLED_SWAP_TYPES, BUNDLED_SWAP_VARIANTS } from './jupiterSwapVariants.js';

/** Where a table's venues beyond the bundled ones came from. */
export type VenueTableSource =
  | { readonly kind: 'bundled' }
  | { readonly kind: 'on-chain'; readonly address: string; readonly slot: number | null }
  | { readonly kind: 'file'; readonly path: string };

interface Entry {
  readonly name: string;
  readonly skip: Skip;
  /** Learned from an IDL, not bundled. */
  readonly learned: boolean;
}

/** A variant index the table cannot read: past its end, or learned with a type it cannot size. */
export class UnknownSwapVariant extends Error {
  override name = 'UnknownSwapVariant';
  constructor(
    readonly index: number,
    readonly known: number,
    table: string,
  ) {
    super(`route plan uses Swap variant ${index}, which the ${table} table does not describe (it knows ${known})`);
  }
}

/** Variant names compared loosely: IDL generations differ in case, never in the letters. */
const sameName = (a: string, b: string): boolean => a.replace(/[^a-z0-9]/gi, '').toLowerCase() === b.replace(/[^a-z0-9]/gi, '').toLowerCase();
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A u8 tag: no plan can name more. */
const MAX_VARIANTS = 256;

export interface Extension {
  readonly table: SwapVariantTable;
  /** Why the IDL was not used (the table is then unchanged), or why some of its venues were left out. */
  readonly problem: string | null;
}

export class SwapVariantTable {
  static #bundled: SwapVariantTable | undefined;

  private constructor(
    readonly entries: readonly (Entry | undefined)[],
    readonly source: VenueTableSource,
  ) {}

  /** The table jupbot ships with. */
  static bundled(): SwapVariantTable {
    if (!SwapVariantTable.#bundled) {
      const compiler = new IdlTypeCompiler(BUNDLED_SWAP_TYPES);
      SwapVariantTable.#bundled = new SwapVariantTable(
        BUNDLED_SWAP_VARIANTS.map((v) => ({ name: v.name, skip: compiler.fields(v.fields, v.name), learned: false })),
        { kind: 'bundled' },
      );
    }
    return SwapVariantTable.#bundled;
  }

  /** Indices described (the highest known plus one). */
  get size(): number {
    return this.entries.length;
  }

  /** Venues learned beyond the bundled ones. */
  get learned(): number {
    return this.entries.filter((e) => e?.learned === true).length;
  }

  /** One line for logs and `tx explain`: which table, from where, how many venues. */
  describe(): string {
    const bundled = SwapVariantTable.bundled().size;
    switch (this.source.kind) {
      case 'bundled':
        return `bundled (${bundled} venues)`;
      case 'on-chain':
        return `on-chain IDL${this.source.slot === null ? '' : ` of the program deployed at slot ${this.source.slot}`} (${bundled} bundled + ${this.learned} learned venues)`;
      case 'file':
        return `IDL file ${this.source.path} (${bundled} bundled + ${this.learned} learned venues)`;
    }
  }

  /** Reads one `Swap` value; returns the venue and whether the table learned it. */
  read(reader: BorshReader): { readonly index: number; readonly name: string; readonly learned: boolean } {
    const index = reader.u8('swap variant');
    const entry = this.entries[index];
    if (!entry) throw new UnknownSwapVariant(index, this.size, this.source.kind === 'bundled' ? 'bundled' : this.describe());
    entry.skip(reader);
    return { index, name: entry.name, learned: entry.learned };
  }

  /** The name of a known index (tests and `tx explain`). */
  nameOf(index: number): string | undefined {
    return this.entries[index]?.name;
  }

  /**
   * This table extended by `idl` (a parsed Anchor IDL of Aggregator v6, either generation). Never
   * throws: an IDL it cannot use leaves the table as it is, with the reason in `problem`.
   */
  extend(idl: unknown, source: VenueTableSource): Extension {
    const unchanged = (problem: string): Extension => ({ table: this, problem });
    const types = isRecord(idl) && Array.isArray(idl['types']) ? (idl['types'] as unknown[]) : null;
    if (types === null) return unchanged('the IDL has no `types` list');
    const swap = types.find((t) => isRecord(t) && t['name'] === 'Swap');
    const variants = isRecord(swap) && isRecord(swap['type']) && Array.isArray(swap['type']['variants']) ? (swap['type']['variants'] as unknown[]) : null;
    if (variants === null || !variants.every((v) => isRecord(v) && typeof v['name'] === 'string'))
      return unchanged('the IDL has no `Swap` enum jupbot can read');
    const base = this.entries;
    if (variants.length < base.length)
      return unchanged(`the IDL lists ${variants.length} Swap variants, no more than the ${base.length} already known: it adds nothing`);
    const named = variants as IdlVariant[];
    for (let i = 0; i < base.length; i++) {
      const known = base[i];
      const theirs = named[i] as IdlVariant;
      if (known && !sameName(known.name, theirs.name))
        return unchanged(
          `the IDL names Swap variant ${i} ${JSON.stringify(theirs.name.slice(0, 64))}, the known table ${known.name}: it does not describe this program, so none of it is used`,
        );
    }
    // The very IDL this table already holds (learned at an earlier start, read again): up to date, nothing to say.
    if (named.length === base.length) return { table: this, problem: null };
    const compiler = new IdlTypeCompiler(types.filter((t) => isRecord(t) && typeof t['name'] === 'string') as unknown as IdlTypeDef[]);
    const skipped: string[] = [];
    const entries: (Entry | undefined)[] = [...base];
    for (let i = base.length; i < Math.min(named.length, MAX_VARIANTS); i++) {
      const variant = named[i] as IdlVariant;
      try {
        entries.push({
          name: variant.name.slice(0, 64),
          skip: compiler.fields(Array.isArray(variant.fields) ? variant.fields : [], variant.name),
          learned: true,
        });
      } catch (error) {
        // Whatever an IDL holds, it cannot break the table: a variant it does not describe well stays unknown.
        entries.push(undefined);
        skipped.push(`${i} (${error instanceof IdlTypeError ? error.message : 'its description is malformed'})`);
      }
    }
    const table = new SwapVariantTable(entries, source);
    return { table, problem: skipped.length === 0 ? null : `left Swap variant(s) ${skipped.join('; ')} unknown` };
  }
}
