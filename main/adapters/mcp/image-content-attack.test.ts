// A hostile MCP server's images (docs/security.md, "A hostile MCP server"): a tool result's image went to the model
// as the server claimed it, type and all. The APIs refuse a request holding an image whose bytes are not the type it
// claims, are not an image or not base64, or are past 8000 pixels on a side (Anthropic: "Could not process image",
// OpenAI: "You uploaded an unsupported image"); the chat's history keeps the image, so every later turn of that chat
// failed the same way: one answer of a stranger's server broke the chat for good. Attachments were already checked by
// their bytes (docs/attachments.md); tool results now are too, where they become the request's image parts. Through
// `agenvoy chat` against a scripted model, with a real child (fixtures/lying-content-server.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatWithCalls } from '../../cli/testing/cli-harness';
import { sniffType } from '../../agent/attachments-sniff';
import { fixture } from './mcp-testing';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function place(): { home: string; cwd: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-img-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-img-ws-'));
  made.push(home, cwd);
  fs.writeFileSync(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      servers: {
        pics: { command: process.execPath, args: [fixture('lying-content-server.mjs')], trust: ['picture'] },
      },
    }),
  );
  return { home, cwd };
}

const KINDS = ['good', 'html', 'not_base64', 'wide', 'jpeg_as_png', 'blob_html'] as const;

interface Part {
  type: string;
  text?: string;
  image_url?: { url: string };
}

describe('images in a hostile MCP server result', () => {
  it('reach the model only as what their bytes are, within what the APIs take; the rest in words', async () => {
    const run = await chatWithCalls(
      KINDS.map((kind) => ({ name: 'mcp__pics__picture', args: { kind } })),
      place(),
      'deny',
    );
    expect(run.code).toBe(0);
    // The request after the results: every image it carries, with the call it answered.
    const request = run.server.requests.at(-1);
    const images: Array<{ mimeType: string; bytes: Buffer }> = [];
    for (const message of request?.body?.messages ?? []) {
      const content = (message as { content?: unknown }).content;
      if (!Array.isArray(content)) continue;
      for (const part of content as Part[]) {
        if (part.type !== 'image_url' || !part.image_url) continue;
        const match = /^data:([^;]*);base64,(.*)$/s.exec(part.image_url.url);
        expect(match).not.toBeNull();
        images.push({ mimeType: match?.[1] ?? '', bytes: Buffer.from(match?.[2] ?? '', 'base64') });
      }
    }
    // Each image sent is what it says, and within the APIs' size on a side.
    for (const image of images) {
      const sniffed = sniffType(image.bytes);
      expect(sniffed.kind).toBe('image');
      if (sniffed.kind !== 'image') continue;
      expect(sniffed.mimeType).toBe(image.mimeType);
      expect(Math.max(sniffed.width, sniffed.height)).toBeLessThanOrEqual(8000);
    }
    // The real PNG still goes, and the JPEG goes as the JPEG it is.
    expect(images.map((image) => image.mimeType).sort()).toEqual(['image/jpeg', 'image/png']);
    // The model reads why the others were left out.
    expect(run.toolResults.call_1).toMatch(/image \(image\/png\) not shown: its bytes are not a PNG/);
    // Data that is not base64 at all the SDK already refuses (the call fails saying so).
    expect(run.toolResults.call_2).toMatch(/Invalid Base64/);
    expect(run.toolResults.call_3).toMatch(/not shown: it is 100000×1 pixels/);
    expect(run.toolResults.call_5).toMatch(/image \(image\/png\) not shown: its bytes are not a PNG/);
  }, 60_000);
});
