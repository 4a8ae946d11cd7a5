// What checkWireImage lets into a request as an image (docs/attachments.md): the cases a script tool can return but
// an MCP server cannot (the SDK refuses data that is not base64); the MCP ones are in
// main/adapters/mcp/image-content-attack.test.ts.
import { describe, expect, it } from 'vitest';
import { checkWireImage } from './wire-image';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('checkWireImage', () => {
  it('takes a real PNG under its type, and image/jpg as image/jpeg', () => {
    expect(checkWireImage('image/png', PNG)).toEqual({ mimeType: 'image/png', note: null });
    expect(checkWireImage('IMAGE/PNG', PNG)).toEqual({ mimeType: 'image/png', note: null });
    expect(checkWireImage('image/jpg', PNG)).toEqual({ mimeType: 'image/png', note: null });
  });

  it('refuses data that is not base64, or is base64 with line breaks, in words', () => {
    for (const data of ['not base64!', `${PNG.slice(0, 40)}\n${PNG.slice(40)}`, PNG.slice(0, -1)]) {
      const checked = checkWireImage('image/png', data);
      expect(checked.mimeType).toBeNull();
      expect(checked.note).toBe('[image (image/png) not shown: its data is not valid base64]');
    }
  });

  it('names a type the APIs do not take, cut to 100 characters', () => {
    const checked = checkWireImage(`image/svg+xml${'x'.repeat(500)}`, PNG);
    expect(checked.mimeType).toBeNull();
    expect(checked.note?.length).toBeLessThan(200);
  });

  it('refuses a damaged header', () => {
    expect(checkWireImage('image/png', 'iVBORw0KGgo=').note).toBe(
      '[image (image/png) not shown: it starts like a PNG image but is damaged (its IHDR header is missing)]',
    );
  });
});
