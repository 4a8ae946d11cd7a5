// Line lookups in a large sorted text file without loading it: binary search with positioned reads.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

// Probes near the top of the search repeat for every key, so they are cached; deeper ones are not,
// which bounds the cache to about 2^PROBE_CACHE_DEPTH entries per file.
const PROBE_CACHE_DEPTH = 12;
const SCAN_WINDOW = 8192;
const PROBE_BYTES = 256;

interface Probe {
  lineStart: number;
  key: string;
}

/** A file of '\n'-separated lines sorted by their first space-separated field (byte order). */
export class SortedLineFile {
  private fd: number | undefined;
  private size = 0;
  private readonly probes = new Map<number, Probe | null>();
  private buffer = Buffer.alloc(SCAN_WINDOW);

  constructor(private readonly path: string) {}

  /** The whole line whose first field is `key`, or undefined (always for empty keys or keys with spaces). */
  find(key: string): string | undefined {
    if (key.length === 0 || /\s/.test(key)) return undefined;
    this.open();
    let lo = 0;
    let hi = this.size;
    for (let depth = 0; hi - lo > SCAN_WINDOW; depth++) {
      const mid = Math.floor((lo + hi) / 2);
      const probe = this.probe(mid, depth < PROBE_CACHE_DEPTH);
      if (!probe || probe.lineStart >= hi) break;
      if (probe.key < key) lo = probe.lineStart;
      else hi = probe.lineStart;
    }
    return this.scan(lo, hi, key);
  }

  /** The line that starts at a byte offset (data files address records this way). */
  lineAt(offset: number): string {
    this.open();
    let length = 1024;
    for (;;) {
      const bytes = this.read(offset, length);
      const end = bytes.indexOf(10);
      if (end >= 0) return bytes.toString('latin1', 0, end);
      if (offset + bytes.length >= this.size || length >= 1 << 20) return bytes.toString('latin1');
      length *= 4;
    }
  }

  /** Releases the file descriptor; the next lookup reopens it. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): void {
    if (this.fd !== undefined) return;
    this.fd = openSync(this.path, 'r');
    this.size = fstatSync(this.fd).size;
  }

  // The first line that starts after `offset`, with its key; null at the end of the file.
  private probe(offset: number, cache: boolean): Probe | null {
    const cached = this.probes.get(offset);
    if (cached !== undefined) return cached;
    const bytes = this.read(offset, PROBE_BYTES);
    const newline = bytes.indexOf(10);
    let probe: Probe | null = null;
    if (newline >= 0 && offset + newline + 1 < this.size) {
      const lineStart = offset + newline + 1;
      const head =
        bytes.length - newline - 1 >= 128 ? bytes.subarray(newline + 1) : this.read(lineStart, 160);
      const space = head.indexOf(32);
      probe = { lineStart, key: head.toString('latin1', 0, space >= 0 ? space : head.length) };
    }
    if (cache) this.probes.set(offset, probe);
    return probe;
  }

  private scan(lo: number, hi: number, key: string): string | undefined {
    const prefix = `${key} `;
    // The wanted line may start exactly at hi, so read one line past it.
    const text = this.read(lo, hi - lo + 1024).toString('latin1');
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      if (text.startsWith(prefix, start)) {
        return end < text.length ? text.slice(start, end) : this.lineAt(lo + start);
      }
      if (start > hi - lo) break;
      start = end + 1;
    }
    return undefined;
  }

  private read(offset: number, length: number): Buffer {
    if (this.fd === undefined) throw new Error(`${this.path} is closed`);
    const wanted = Math.max(0, Math.min(length, this.size - offset));
    if (this.buffer.length < wanted) this.buffer = Buffer.alloc(wanted);
    const count = readSync(this.fd, this.buffer, 0, wanted, offset);
    return this.buffer.subarray(0, count);
  }
}
