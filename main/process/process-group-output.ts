// A bounded output buffer: keeps the head and the tail of a stream and counts what it cut (docs/dispatch.md, "Output caps").

/** Default cap of a captured stream: 1 MiB. */
export const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Room a truncation note and its two line breaks take (the longest note, for 2^53 bytes, is 52 characters). A stream
 * capped this much below a limit stays within the limit note included, so no later cap cuts it again: one note per
 * stream.
 */
export const TRUNCATION_NOTE_BYTES = 64;

/** The cap for one stream whose text, note included, must fit in `limit` bytes. */
export function capWithinLimit(limit: number): number {
  return Math.max(0, limit - TRUNCATION_NOTE_BYTES);
}

/** The note put where output was cut, e.g. "[output truncated: 2,345,678 bytes cut]". */
export function truncationNote(cutBytes: number): string {
  return `[output truncated: ${cutBytes.toLocaleString('en-US')} bytes cut]`;
}

/** Collects a byte stream in at most `maxBytes` (plus one chunk): the first half and the last half. */
export class CappedOutput {
  private readonly headMax: number;
  private readonly tailMax: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(readonly maxBytes: number = MAX_OUTPUT_BYTES) {
    if (!Number.isInteger(maxBytes) || maxBytes < 0) throw new RangeError(`bad output cap: ${maxBytes}`);
    this.headMax = Math.ceil(maxBytes / 2);
    this.tailMax = maxBytes - this.headMax;
  }

  /** Adds a chunk. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headMax) {
      const take = Math.min(rest.length, this.headMax - this.headBytes);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailMax === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    // Drop whole chunks first, then cut into the oldest one, so memory stays near the cap.
    while (this.tailBytes > this.tailMax) {
      const oldest = this.tail[0] as Buffer;
      const excess = this.tailBytes - this.tailMax;
      if (oldest.length <= excess) {
        this.tail.shift();
        this.tailBytes -= oldest.length;
      } else {
        this.tail[0] = Buffer.from(oldest.subarray(excess));
        this.tailBytes -= excess;
      }
    }
  }

  /** Every byte pushed so far, cut or not. */
  get totalBytes(): number {
    return this.total;
  }

  /** Whether anything was cut. */
  get truncated(): boolean {
    return this.total > this.headBytes + this.tailBytes;
  }

  /** The text kept: everything, or head + note + tail, cut at UTF-8 character boundaries. */
  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (!this.truncated) return Buffer.concat([head, tail]).toString('utf8');
    const keptHead = head.subarray(0, utf8Boundary(head, head.length));
    const keptTail = tail.subarray(skipContinuation(tail));
    const cut = this.total - keptHead.length - keptTail.length;
    return `${keptHead.toString('utf8')}\n${truncationNote(cut)}\n${keptTail.toString('utf8')}`;
  }
}

// The largest end <= `end` that does not split a multi-byte UTF-8 character.
function utf8Boundary(buffer: Buffer, end: number): number {
  let start = end;
  // Walk back over at most 3 continuation bytes (10xxxxxx) to the lead byte.
  while (start > 0 && end - start < 4 && ((buffer[start - 1] as number) & 0xc0) === 0x80) start--;
  if (start === 0) return end;
  const lead = buffer[start - 1] as number;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return end - (start - 1) >= length ? end : start - 1;
}

// The index of the first byte that is not a continuation byte (at most 3 skipped).
function skipContinuation(buffer: Buffer): number {
  let index = 0;
  while (index < 3 && index < buffer.length && ((buffer[index] as number) & 0xc0) === 0x80) index++;
  return index;
}
