import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../tools/types';
import { okOutcome } from '../../core/outcome';
import { capContent, toToolResult } from './call-result';

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

  it('caps the whole output at 1 MiB with a note of how much was cut', () => {
    const big = 'x'.repeat(700 * 1024);
    const result = toToolResult({
      content: [
        { type: 'text', text: big },
        { type: 'text', text: big },
        { type: 'image', mimeType: 'image/png', data: 'abc' },
      ],
    });
    const parts = typeof result === 'string' ? [] : result.content;
    const bytes = parts.reduce((sum, p) => sum + (p.type === 'text' ? Buffer.byteLength(p.text) : 0), 0);
    expect(bytes).toBeLessThan(1024 * 1024 + 200);
    const cut = parts[1]?.type === 'text' ? parts[1].text : '';
    // 1 MiB − 700 KiB of the second part is kept: 385,024 bytes are cut.
    expect(cut.endsWith('\n[output truncated: 385,024 bytes cut]')).toBe(true);
    expect(parts[2]).toEqual({ type: 'text', text: '[output truncated: 1 more part (3 bytes) cut]' });
  });

  it('leaves output under the cap untouched', () => {
    const parts = [{ type: 'text' as const, text: 'small' }];
    expect(capContent(parts, 100)).toBe(parts);
  });
});
