// The size limit of one message over HTTP, event by event (docs/security.md, "A hostile MCP server"): the scan
// against a reference that looks at every byte, over random streams cut into random chunks.
import { describe, expect, it } from 'vitest';
import type { EventScan } from './http-message-limit';
import { countEventBytes } from './http-message-limit';

// What an event stream's current event holds, byte by byte (the rule the scan must keep).
function reference(bytes: Uint8Array, scan: EventScan): void {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 0x0a && scan.afterCR) {
      scan.afterCR = false;
      continue;
    }
    scan.afterCR = byte === 0x0d;
    if (byte === 0x0a || byte === 0x0d) {
      if (scan.lineBytes === 0) scan.held = 0;
      scan.lineBytes = 0;
    } else {
      scan.lineBytes++;
      scan.held++;
    }
  }
}

// A small deterministic generator, so a failure can be replayed.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('countEventBytes', () => {
  it('agrees with a byte-by-byte reading on random streams in random chunks (CR, LF, CRLF, blank lines)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const alphabet = [0x0a, 0x0d, 0x61, 0x62, 0x3a, 0x20];
      const stream = Uint8Array.from({ length: Math.floor(next() * 400) }, () =>
        next() < 0.6 ? 0x61 : (alphabet[Math.floor(next() * alphabet.length)] as number),
      );
      const fast: EventScan = { held: 0, lineBytes: 0, afterCR: false };
      const slow: EventScan = { held: 0, lineBytes: 0, afterCR: false };
      for (let at = 0; at < stream.length;) {
        const size = 1 + Math.floor(next() * 40);
        const chunk = stream.subarray(at, at + size);
        countEventBytes(chunk, fast);
        reference(chunk, slow);
        expect(fast, `seed ${seed} at ${at}`).toEqual(slow);
        at += size;
      }
    }
  });

  it('counts a CRLF split across chunks as one line break, and a blank line as the end of the event', () => {
    const scan: EventScan = { held: 0, lineBytes: 0, afterCR: false };
    const text = (s: string) => new TextEncoder().encode(s);
    countEventBytes(text('data: abc\r'), scan);
    countEventBytes(text('\ndata: de'), scan);
    expect(scan.held).toBe('data: abcdata: de'.length);
    countEventBytes(text('\r\n\r'), scan);
    countEventBytes(text('\n'), scan);
    expect(scan.held).toBe(0);
  });
});
