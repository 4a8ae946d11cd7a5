// Attachments as they arrive, checked before anything is written (docs/attachments.md): the request's shape with zod,
// counts and string sizes bounded before any base64 is decoded, the base64 decoded strictly, each file's real type
// read from its bytes, and the limits applied. Every refusal is an AttachmentError naming the file and the limit.
import { z } from 'zod';
import {
  ATTACHMENT_LIMITS,
  formatBytes,
  formatOver,
  MAX_DATA_CHARS,
  MAX_TOTAL_DATA_CHARS,
} from './attachments-limits';
import { savedName, shownName } from './attachments-name';
import type { ImageType } from './attachments-sniff';
import { sniffType } from './attachments-sniff';

/** An attachment refused, in words that name the file and the limit; nothing was saved or sent. */
export class AttachmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttachmentError';
  }
}

/** One attachment as given: a name, the type it claims, and its bytes. */
export interface RawAttachment {
  name: string;
  mimeType: string;
  bytes: Uint8Array;
}

/** What an attachment turned out to be, and how it goes to the model. */
export type AttachmentContent =
  | { kind: 'image'; mimeType: ImageType; width: number; height: number }
  | { kind: 'text'; mimeType: string; text: string }
  /** Saved in the workspace for tools only: not an image or text the model reads. */
  | { kind: 'file'; mimeType: string };

/** An attachment that passed every check. */
export interface CheckedAttachment {
  /** The name to show (invisible characters removed). */
  name: string;
  /** The safe file name to save it under (a suffix is added if it is taken). */
  fileName: string;
  bytes: Uint8Array;
  content: AttachmentContent;
}

const MAX_TYPE_CHARS = 255;

const inputSchema = z.object({
  name: z.string({ error: '"name" must be a string' }).max(ATTACHMENT_LIMITS.nameChars, {
    error: `its name is longer than ${ATTACHMENT_LIMITS.nameChars} characters`,
  }),
  mimeType: z
    .string({ error: '"mimeType" must be a string' })
    .max(MAX_TYPE_CHARS, { error: `its type is longer than ${MAX_TYPE_CHARS} characters` }),
  data: z.string({ error: '"data" must be a base64 string' }),
});

/**
 * Reads a request's `attachments` field (untrusted): absent is none; otherwise at most `count` objects of name,
 * type and base64 data, bounded before decoding. Throws AttachmentError.
 */
export function readAttachmentInputs(value: unknown): RawAttachment[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new AttachmentError('"attachments" must be a list of files');
  countCheck(value.length);
  const inputs = value.map((item: unknown, i) => {
    const parsed = inputSchema.safeParse(item);
    if (parsed.success) return parsed.data;
    const name = (item as { name?: unknown } | null)?.name;
    const which = typeof name === 'string' ? `"${shownName(name.slice(0, 200))}"` : `attachment ${i + 1}`;
    throw new AttachmentError(
      `${which} was refused: ${parsed.error.issues[0]?.message ?? 'it is malformed'}`,
    );
  });
  // Sizes are judged on the base64 text, before a byte is decoded.
  let total = 0;
  for (const input of inputs) {
    if (input.data.length > MAX_DATA_CHARS) throw tooBig(shownName(input.name), (input.data.length / 4) * 3);
    total += input.data.length;
  }
  if (total > MAX_TOTAL_DATA_CHARS) throw tooMuch((total / 4) * 3, true);
  return inputs.map((input) => ({
    name: input.name,
    mimeType: input.mimeType,
    bytes: decodeBase64(input.data, shownName(input.name)),
  }));
}

/** Checks every attachment (real type, limits, names); throws AttachmentError for the first refused. */
export function checkAttachments(raw: readonly RawAttachment[]): CheckedAttachment[] {
  countCheck(raw.length);
  const total = raw.reduce((sum, file) => sum + file.bytes.length, 0);
  if (total > ATTACHMENT_LIMITS.totalBytes) throw tooMuch(total);
  return raw.map(checkOne);
}

function checkOne(file: RawAttachment): CheckedAttachment {
  const name = shownName(file.name);
  const size = file.bytes.length;
  const sniffed = sniffType(file.bytes);
  const content = ((): AttachmentContent => {
    switch (sniffed.kind) {
      case 'image':
        if (size > ATTACHMENT_LIMITS.imageBytes)
          throw new AttachmentError(
            `"${name}" is a ${formatOver(size, ATTACHMENT_LIMITS.imageBytes)} image; an image may be at most ` +
              `${formatBytes(ATTACHMENT_LIMITS.imageBytes)} (the model takes at most 5 MB of base64 per image). ` +
              'Make it smaller and attach it again.',
          );
        if (Math.max(sniffed.width, sniffed.height) > ATTACHMENT_LIMITS.imageSide)
          throw new AttachmentError(
            `"${name}" is ${sniffed.width}×${sniffed.height} pixels; an image may be at most ` +
              `${ATTACHMENT_LIMITS.imageSide} pixels on a side (the model refuses larger ones).`,
          );
        return sniffed;
      case 'damaged_image':
        throw new AttachmentError(
          `"${name}" starts like a ${sniffed.mimeType.slice(6).toUpperCase()} image but is damaged ` +
            `(${sniffed.reason}); it was not sent.`,
        );
      case 'text':
        if (size > ATTACHMENT_LIMITS.textBytes)
          throw new AttachmentError(
            `"${name}" is ${formatOver(size, ATTACHMENT_LIMITS.textBytes)} of text; a text file may be at most ` +
              `${formatBytes(ATTACHMENT_LIMITS.textBytes)}, since the model reads all of it again with every later ` +
              'message. Put the file in the workspace and ask for the part you need to be read with tools.',
          );
        return {
          kind: 'text',
          mimeType: sniffed.svg ? 'image/svg+xml' : textType(file.mimeType),
          text: sniffed.text,
        };
      case 'file':
        if (size > ATTACHMENT_LIMITS.fileBytes)
          throw new AttachmentError(
            `"${name}" is ${formatOver(size, ATTACHMENT_LIMITS.fileBytes)}; a file that is not an image or text may be at most ` +
              `${formatBytes(ATTACHMENT_LIMITS.fileBytes)} (it is only saved in the workspace for tools).`,
          );
        return { kind: 'file', mimeType: sniffed.mimeType };
    }
  })();
  return { name, fileName: savedName(file.name, extensionFor(content)), bytes: file.bytes, content };
}

function countCheck(count: number): void {
  if (count > ATTACHMENT_LIMITS.count)
    throw new AttachmentError(
      `${count} files were attached; one message may carry at most ${ATTACHMENT_LIMITS.count}.`,
    );
}

function tooBig(name: string, bytes: number): AttachmentError {
  return new AttachmentError(
    `"${name}" is about ${formatOver(Math.round(bytes), ATTACHMENT_LIMITS.fileBytes)}; no attachment may be larger than ` +
      `${formatBytes(ATTACHMENT_LIMITS.fileBytes)} (images ${formatBytes(ATTACHMENT_LIMITS.imageBytes)}, ` +
      `text ${formatBytes(ATTACHMENT_LIMITS.textBytes)}).`,
  );
}

function tooMuch(bytes: number, estimated = false): AttachmentError {
  return new AttachmentError(
    `the attachments are ${estimated ? 'about ' : ''}${formatOver(Math.round(bytes), ATTACHMENT_LIMITS.totalBytes)} together; one message ` +
      `may carry at most ${formatBytes(ATTACHMENT_LIMITS.totalBytes)}.`,
  );
}

// Strict base64: the standard alphabet, padded to a multiple of 4, and canonical (re-encoding gives the same text),
// where Node's decoder would skip any character it does not know.
function decodeBase64(data: string, name: string): Uint8Array {
  const bytes =
    data.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(data) ? Buffer.from(data, 'base64') : null;
  if (bytes === null || bytes.toString('base64') !== data)
    throw new AttachmentError(`"${name}" was refused: its data is not valid base64`);
  return bytes;
}

// The type a text file claims, when it is a text type; anything else (an image type, garbage) reads as text/plain.
function textType(claimed: string): string {
  const type = claimed.trim().toLowerCase();
  const textual =
    /^text\/[a-z0-9][a-z0-9.+-]{0,60}$/.test(type) ||
    /^application\/(?:json|xml|javascript|x-javascript|ecmascript|x-sh|x-yaml|yaml|toml|x-toml|sql|graphql|[a-z0-9.-]{1,60}\+(?:json|xml))$/.test(
      type,
    );
  return textual ? type : 'text/plain';
}

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
  'application/pdf': '.pdf',
  'application/zip': '.zip',
  'application/gzip': '.gz',
};

function extensionFor(content: AttachmentContent): string {
  return EXTENSIONS[content.mimeType] ?? (content.kind === 'text' ? '.txt' : '.bin');
}
