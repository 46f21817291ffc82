import { Writable } from 'node:stream';

/** A writable stream that keeps what was written, for asserting on log output. */
export class MemoryStream extends Writable {
  readonly chunks: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk.toString());
    callback();
  }

  get text(): string {
    return this.chunks.join('');
  }

  /** Each written line parsed as JSON (pino writes one object per line). */
  lines(): Record<string, unknown>[] {
    return this.text
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}
