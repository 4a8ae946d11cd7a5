import { describe, expect, it } from 'vitest';
import { CappedOutput, MAX_OUTPUT_BYTES, truncationNote } from './process-group-output';

describe('CappedOutput', () => {
  it('keeps everything under the cap', () => {
    const out = new CappedOutput(10);
    out.push(Buffer.from('hello'));
    out.push(Buffer.from('world'));
    expect(out.truncated).toBe(false);
    expect(out.text()).toBe('helloworld');
  });

  it('keeps head and tail with a note of the bytes cut, across many chunks', () => {
    const out = new CappedOutput(10);
    for (const chunk of ['abc', 'defgh', 'ij', 'klmnopq', 'rstuvwxyz']) out.push(Buffer.from(chunk));
    expect(out.totalBytes).toBe(26);
    expect(out.truncated).toBe(true);
    expect(out.text()).toBe(`abcde\n${truncationNote(16)}\nvwxyz`);
  });

  it('formats the note with thousands separators and defaults to 1 MiB', () => {
    expect(truncationNote(2345678)).toBe('[output truncated: 2,345,678 bytes cut]');
    expect(new CappedOutput().maxBytes).toBe(MAX_OUTPUT_BYTES);
    expect(MAX_OUTPUT_BYTES).toBe(1024 * 1024);
  });

  it('never splits a multi-byte character and counts the dropped bytes as cut', () => {
    const out = new CappedOutput(6);
    // 'é' is 2 bytes, '€' is 3: the head (3 bytes) ends inside the second 'é', the tail starts inside a '€'.
    out.push(Buffer.from('ééé'));
    out.push(Buffer.from('€€€'));
    const text = out.text();
    expect(text).not.toContain('\uFFFD');
    expect(text).toBe(`é\n${truncationNote(15 - 2 - 3)}\n€`);
  });

  it('stays bounded in memory while fed far more than the cap', () => {
    const out = new CappedOutput(1000);
    const chunk = Buffer.alloc(64 * 1024, 'z');
    for (let i = 0; i < 200; i++) out.push(chunk);
    expect(out.totalBytes).toBe(200 * 64 * 1024);
    expect(out.text().length).toBeLessThan(1100);
  });
});
