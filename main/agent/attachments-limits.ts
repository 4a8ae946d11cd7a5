// The limits of what a person may attach to one message, and why each is what it is (docs/attachments.md, "Limits").
// The composer refuses early with the same numbers (renderer/features/chat/composer-attachments.ts); main decides.
// Both are typed by the contract's AttachmentLimits, so the compiler keeps them equal.
import type { AttachmentLimits } from '../../preload/contract';

/** The numbers main enforces on every message's attachments. */
export const ATTACHMENT_LIMITS = {
  /** Files per message. */
  count: 10,
  /**
   * An image sent to the model: 3.75 MiB, so its base64 is at most 5 MiB, the per-image limit Anthropic measures on
   * the base64 text (OpenAI's is larger).
   */
  imageBytes: 3_932_160,
  /** Pixels on an image's longer side: Anthropic refuses a request with an image past 8000 on either side. */
  imageSide: 8000,
  /** A text file sent to the model in full: it is sent again in every later round and turn of the chat. */
  textBytes: 524_288, // 512 KiB
  /** A file only saved in the workspace for tools (not an image or text the model reads). */
  fileBytes: 10_485_760, // 10 MiB
  /**
   * All of one message's files together: 16 MiB is about 21.4 MiB of base64, which keeps a message of images under
   * Anthropic's 32 MB request limit and a `turn.send` frame under browser mode's WebSocket limit (docs/attachments.md).
   */
  totalBytes: 16_777_216, // 16 MiB
  /** The longest file name accepted as given (it is shortened further for the saved copy). */
  nameChars: 1024,
} as const satisfies AttachmentLimits & { imageSide: number; nameChars: number };

/** The characters of base64 that encode `bytes` bytes (with padding). */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** The longest `data` string any single attachment may have: the base64 of the largest per-file limit. */
export const MAX_DATA_CHARS = base64Length(
  Math.max(ATTACHMENT_LIMITS.imageBytes, ATTACHMENT_LIMITS.textBytes, ATTACHMENT_LIMITS.fileBytes),
);

/** The longest sum of every attachment's `data` in one message (each file may add up to 2 characters of padding). */
export const MAX_TOTAL_DATA_CHARS = base64Length(ATTACHMENT_LIMITS.totalBytes) + 4 * ATTACHMENT_LIMITS.count;

/** A byte count in words: "812 bytes", "12.5 KB", "3.75 MB" (powers of 1024, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${Number(value.toFixed(2))} ${unit}`;
}

/** `bytes` in words for a refusal of `limit`: exact bytes when the rounded figure would read as the limit itself. */
export function formatOver(bytes: number, limit: number): string {
  const shown = formatBytes(bytes);
  return shown === formatBytes(limit) ? `${bytes.toLocaleString('en-US')} bytes` : shown;
}
