// What a file really is, read from its bytes and never from the name or type it claims (docs/attachments.md): one of
// the four image types both providers accept (with its size in pixels, read from its header), UTF-8 text, or any
// other file. SVG is text here, never an image.

/** What the bytes are. */
export type SniffedType =
  | { kind: 'image'; mimeType: ImageType; width: number; height: number }
  /** It starts like an image of `mimeType` but its header does not hold together. */
  | { kind: 'damaged_image'; mimeType: ImageType; reason: string }
  | { kind: 'text'; text: string; svg: boolean }
  | { kind: 'file'; mimeType: string };

/** The image types sent to the model as images. */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Reads what `bytes` are. */
export function sniffType(bytes: Uint8Array): SniffedType {
  const image = sniffImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (image) return image;
  const text = utf8Text(bytes);
  if (text !== null) return { kind: 'text', text, svg: looksLikeSvg(text) };
  return { kind: 'file', mimeType: otherType(bytes) };
}

function sniffImage(b: Buffer): SniffedType | null {
  if (startsWith(b, PNG_SIGNATURE)) return png(b);
  if (startsWith(b, [0xff, 0xd8, 0xff])) return jpeg(b);
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return gif(b);
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return webp(b);
  return null;
}

function png(b: Buffer): SniffedType {
  if (b.length < 33 || ascii(b, 12, 16) !== 'IHDR' || b.readUInt32BE(8) !== 13)
    return damaged('image/png', 'its IHDR header is missing');
  return sized('image/png', b.readUInt32BE(16), b.readUInt32BE(20));
}

function gif(b: Buffer): SniffedType {
  if (b.length < 13) return damaged('image/gif', 'its header is cut short');
  return sized('image/gif', b.readUInt16LE(6), b.readUInt16LE(8));
}

// A JPEG's size is in its first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC); segments are walked by
// their lengths, which bounds the walk by the file's size.
function jpeg(b: Buffer): SniffedType {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return damaged('image/jpeg', 'a segment does not start with a marker');
    const marker = b[i + 1] as number;
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break;
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return damaged('image/jpeg', 'a segment has an impossible length');
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) {
      if (i + 9 > b.length) break;
      return sized('image/jpeg', b.readUInt16BE(i + 7), b.readUInt16BE(i + 5));
    }
    i += 2 + length;
  }
  return damaged('image/jpeg', 'it has no frame header giving its size');
}

function webp(b: Buffer): SniffedType {
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8 ' && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return sized('image/webp', b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return sized('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X' && b.length >= 30)
    return sized('image/webp', b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
  return damaged('image/webp', 'its VP8 header is missing');
}

function sized(mimeType: ImageType, width: number, height: number): SniffedType {
  if (width === 0 || height === 0) return damaged(mimeType, 'its header gives it no width or height');
  return { kind: 'image', mimeType, width, height };
}

function damaged(mimeType: ImageType, reason: string): SniffedType {
  return { kind: 'damaged_image', mimeType, reason };
}

// Valid UTF-8 without a NUL byte; a leading byte-order mark is dropped.
function utf8Text(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

// An SVG root element near the start, after any XML declaration, doctype or comments.
function looksLikeSvg(text: string): boolean {
  return /^(?:\s|<\?xml[^>]*>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*<svg[\s>/]/i.test(text.slice(0, 4096));
}

// Common binary types by their magic bytes, to name them in words; anything else is application/octet-stream.
const MAGIC: Array<{ at: number; bytes: number[] | string; mimeType: string }> = [
  { at: 0, bytes: '%PDF-', mimeType: 'application/pdf' },
  { at: 0, bytes: [0x50, 0x4b, 0x03, 0x04], mimeType: 'application/zip' },
  { at: 0, bytes: [0x1f, 0x8b], mimeType: 'application/gzip' },
  { at: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], mimeType: 'application/x-7z-compressed' },
  { at: 0, bytes: 'BM', mimeType: 'image/bmp' },
  { at: 0, bytes: [0x49, 0x49, 0x2a, 0x00], mimeType: 'image/tiff' },
  { at: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a], mimeType: 'image/tiff' },
  { at: 0, bytes: [0x00, 0x00, 0x01, 0x00], mimeType: 'image/x-icon' },
  { at: 4, bytes: 'ftypheic', mimeType: 'image/heic' },
  { at: 4, bytes: 'ftypavif', mimeType: 'image/avif' },
  { at: 4, bytes: 'ftyp', mimeType: 'video/mp4' },
  { at: 0, bytes: [0x7f, 0x45, 0x4c, 0x46], mimeType: 'application/x-executable' },
  { at: 0, bytes: 'MZ', mimeType: 'application/x-msdownload' },
  { at: 0, bytes: [0x00, 0x61, 0x73, 0x6d], mimeType: 'application/wasm' },
  { at: 0, bytes: 'SQLite format 3\0', mimeType: 'application/vnd.sqlite3' },
];

function otherType(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const magic of MAGIC) {
    const expected = typeof magic.bytes === 'string' ? [...Buffer.from(magic.bytes, 'latin1')] : magic.bytes;
    if (startsWith(b.subarray(magic.at), expected)) return magic.mimeType;
  }
  return 'application/octet-stream';
}

function startsWith(b: Buffer, expected: number[]): boolean {
  return b.length >= expected.length && expected.every((byte, i) => b[i] === byte);
}

function ascii(b: Buffer, start: number, end: number): string {
  return b.length >= end ? b.toString('latin1', start, end) : '';
}
