// Real files to attach in tests: valid PNG, GIF, JPEG and WebP headers of any size in pixels, and base64 of them.
import zlib from 'node:zlib';

/** A valid PNG of `width`×`height` (one gray row repeated); `pad` extra bytes in a private chunk make it larger. */
export function pngBytes(width = 2, height = 2, pad = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit grayscale
  // Small images get real pixels; a huge declared size keeps a token IDAT (the header is what the checks read).
  const rows = width * height <= 1_000_000 ? height : 1;
  const raw = Buffer.alloc(rows * (width + 1), 0x80);
  for (let y = 0; y < rows; y++) raw[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(pad > 0 ? [chunk('prVt', Buffer.alloc(pad, 7))] : []),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF header of `width`×`height` with a minimal body. */
export function gifBytes(width = 1, height = 1): Buffer {
  const head = Buffer.from('GIF89a\0\0\0\0\0\0\0', 'latin1');
  head.writeUInt16LE(width, 6);
  head.writeUInt16LE(height, 8);
  return Buffer.concat([head, Buffer.from([0x3b])]);
}

/** A JPEG's opening segments (SOI, APP0, SOF0) of `width`×`height`. */
export function jpegBytes(width = 1, height = 1): Buffer {
  const app0 = Buffer.from([
    0xff,
    0xe0,
    0x00,
    0x10,
    ...Buffer.from('JFIF\0', 'latin1'),
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
  ]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A lossless WebP header (VP8L) of `width`×`height`. */
export function webpBytes(width = 1, height = 1): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBPVP8L', 8, 'latin1');
  b.writeUInt32LE(10, 16);
  b[20] = 0x2f;
  b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  return b;
}

/** An attachment input (the contract's AttachmentInput) of `bytes`. */
export function attachmentInput(name: string, mimeType: string, bytes: Uint8Array | string) {
  return { name, mimeType, data: Buffer.from(bytes).toString('base64') };
}
