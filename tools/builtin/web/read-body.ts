// Reading response bodies for the model: capped in bytes, decoded when they are text, described when they are not.
import { clipChars } from '../../sdk/clip-chars';

/** A body read up to a cap. */
export interface CappedBody {
  bytes: Buffer;
  /** True when the body went on past the cap and reading stopped there. */
  cut: boolean;
}

/** Reads at most `maxBytes` of a body stream, then stops it (closing the connection). */
export async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown },
  maxBytes: number,
): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk);
    if (size + buffer.length > maxBytes) {
      chunks.push(buffer.subarray(0, maxBytes - size));
      body.destroy();
      return { bytes: Buffer.concat(chunks), cut: true };
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}

const TEXT_TYPES =
  /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript|ecmascript|x-www-form-urlencoded|x-yaml|yaml|toml|graphql|sql|x-ndjson|csv|x-sh)\b)/i;

/** The body as text, or null when it is binary (by its content type, or by sniffing when that says nothing). */
export function decodeText(body: CappedBody, contentType: string | undefined): string | null {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (type && type !== 'application/octet-stream' && !TEXT_TYPES.test(type)) return null;
  if (!type || type === 'application/octet-stream') {
    const head = body.bytes.subarray(0, 8192);
    if (head.includes(0)) return null;
    try {
      // A cut body may end inside a character; only the last 3 bytes are allowed to be incomplete.
      new TextDecoder('utf-8', { fatal: true }).decode(body.cut ? body.bytes.subarray(0, -3) : body.bytes);
    } catch {
      return null;
    }
  }
  return decoderFor(charset).decode(body.bytes);
}

/** One line describing a body that is not shown. */
export function describeBinary(body: CappedBody, contentType: string | undefined): string {
  const size = body.cut ? `more than ${body.bytes.length} bytes` : `${body.bytes.length} bytes`;
  return `[binary body: ${contentType || 'unknown type'}, ${size}; not shown: use download_file to save it]`;
}

/**
 * Cuts text to `maxChars` with a note saying how much was left out, in the words the redactor scrubs around
 * ("[output truncated: …]"), so a secret the cut splits shows neither its start nor its end (docs/secrets.md).
 */
export function capText(text: string, maxChars: number, bodyCut = false): string {
  if (text.length <= maxChars && !bodyCut) return text;
  if (text.length <= maxChars) return `${text}\n[output truncated: reading stopped at the size limit]`;
  const { text: kept } = clipChars(text, maxChars);
  return `${kept}\n[output truncated: showing the first ${kept.length} of ${bodyCut ? 'more than ' : ''}${text.length} characters]`;
}

function decoderFor(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}
