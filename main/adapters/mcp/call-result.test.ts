import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../tools/sdk/types';
import { okOutcome } from '../../core/outcome';
import { capContent, deeperThan, toToolResult } from './call-result';

describe('toToolResult', () => {
  it('keeps text, images and embedded resources as parts, in order; links become text', () => {
    const result = toToolResult({
      content: [
        { type: 'text', text: 'one' },
        { type: 'image', mimeType: 'image/png', data: 'iVBOR' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'body' } },
        { type: 'resource_link', uri: 'file:///b.txt', name: 'b.txt', mimeType: 'text/plain' },
        { type: 'text', text: 'two' },
      ],
    });
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'one' },
        { type: 'image', mimeType: 'image/png', data: 'iVBOR' },
        { type: 'resource', uri: 'file:///a.txt', mimeType: 'text/plain', text: 'body' },
        { type: 'text', text: '[resource link] b.txt: file:///b.txt (text/plain)' },
        { type: 'text', text: 'two' },
      ],
    });
    // The dispatcher joins the text parts for the model.
    expect(okOutcome(result, 1)).toMatchObject({
      text: 'one\n[resource link] b.txt: file:///b.txt (text/plain)\ntwo',
    });
  });

  it('passes structured content on as data, and as text when there is no content', () => {
    expect(toToolResult({ content: [], structuredContent: { n: 1 } })).toEqual({
      content: [{ type: 'text', text: '{"n":1}' }],
      data: { n: 1 },
    });
  });

  it('turns isError results into ToolError("mcp_tool_error") with the server text', () => {
    const error = (() => {
      try {
        toToolResult({ content: [{ type: 'text', text: 'no such repo' }], isError: true });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'mcp_tool_error', message: 'no such repo' });
  });

  it('caps the whole output at 1 MiB, note included, with exactly one note', () => {
    const big = 'x'.repeat(700 * 1024);
    const result = toToolResult({
      content: [
        { type: 'text', text: big },
        { type: 'text', text: big },
        { type: 'image', mimeType: 'image/png', data: 'abc' },
      ],
    });
    const parts = typeof result === 'string' ? [] : result.content;
    expect(parts).toHaveLength(2);
    const bytes = parts.reduce((sum, p) => sum + (p.type === 'text' ? Buffer.byteLength(p.text) : 0), 0);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    const all = parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    // 1 MiB − 128 bytes of room − 700 KiB of the second part is kept; the rest and the image are cut.
    expect(all.match(/\[output truncated[^\]]*\]/g)).toEqual([
      '[output truncated: 385,155 bytes cut, with 1 more part]',
    ]);
    // The dispatcher's own cap finds nothing left to cut.
    const outcome = okOutcome(result, 0);
    expect(outcome.outcome === 'ok' && outcome.text.match(/output truncated/g)).toHaveLength(1);
  });

  it('drops parts after the cap with one note when no text part crosses it', () => {
    const parts = capContent(
      [
        { type: 'text', text: 'a'.repeat(50) },
        { type: 'image', mimeType: 'image/png', data: 'b'.repeat(400) },
        { type: 'text', text: 'c' },
      ],
      300,
    );
    expect(parts).toEqual([
      { type: 'text', text: 'a'.repeat(50) },
      { type: 'text', text: '[output truncated: 2 more parts (401 bytes) cut]' },
    ]);
  });

  it('leaves output under the cap untouched', () => {
    const parts = [{ type: 'text' as const, text: 'small' }];
    expect(capContent(parts, 100)).toBe(parts);
  });

  it('measures multi-byte text exactly when its length alone cannot tell (the fast path is only a bound)', () => {
    // 40 × "é" is 80 bytes: under a 100-byte cap, though 40 units could be 120 bytes.
    const under = [{ type: 'text' as const, text: 'é'.repeat(40) }];
    expect(capContent(under, 100)).toBe(under);
    // 160 × "é" is 320 bytes: cut to the 172 bytes left beside the note's room.
    expect(capContent([{ type: 'text', text: 'é'.repeat(160) }], 300)).toEqual([
      { type: 'text', text: `${'é'.repeat(86)}\n[output truncated: 148 bytes cut]` },
    ]);
  });

  it('keeps structured content nested 64 levels deep and drops one nested 65, saying why', () => {
    const nest = (depth: number): unknown => {
      let value: unknown = {};
      for (let i = 1; i < depth; i++) value = { a: value };
      return value;
    };
    expect(deeperThan(nest(64), 64)).toBe(false);
    expect(deeperThan(nest(65), 64)).toBe(true);
    expect(
      toToolResult({ content: [], structuredContent: nest(64) as Record<string, unknown> }),
    ).toHaveProperty('data');
    const dropped = toToolResult({ content: [], structuredContent: nest(65) as Record<string, unknown> });
    expect(dropped).toEqual({
      content: [
        {
          type: 'text',
          text: '[structured content not kept: nested deeper than 64 levels; the limit is 64]',
        },
      ],
    });
  });
});
