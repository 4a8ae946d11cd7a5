// Files waiting in the composer to go with the next message: read as base64, with early refusals in words of what
// main would refuse anyway (main reads the real type from the bytes and decides: docs/attachments.md).
import type { AttachmentInput, AttachmentLimits } from '../../../preload/contract';
import { t } from '../../i18n/i18n';
import { formatBytes } from '../../shared/format/intl-format';

/** main/agent/attachments-limits.ts's numbers (the contract's type keeps them equal). */
export const COMPOSER_LIMITS: AttachmentLimits = {
  count: 10,
  imageBytes: 3_932_160,
  textBytes: 524_288, // 512 KiB
  fileBytes: 10_485_760, // 10 MiB
  totalBytes: 16_777_216, // 16 MiB
};

/** A file in the composer, ready to send. */
export interface PendingAttachment extends AttachmentInput {
  id: string;
  size: number;
  /** A data URL to show as a thumbnail (the four image types main sends as images), else null. */
  preview: string | null;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
let nextId = 0;

/** Reads `files` into attachments, after those already pending; what cannot go is refused in words instead. */
export async function addAttachments(
  files: readonly File[],
  pending: readonly PendingAttachment[],
): Promise<{ added: PendingAttachment[]; refusals: string[] }> {
  const added: PendingAttachment[] = [];
  const refusals: string[] = [];
  let total = pending.reduce((sum, file) => sum + file.size, 0);
  for (const file of files) {
    const refusal = refusalFor(file, pending.length + added.length, total);
    if (refusal) {
      refusals.push(refusal);
      continue;
    }
    const data = await readBase64(file);
    if (data === null) {
      refusals.push(t('composer.unreadable', { name: file.name }));
      continue;
    }
    total += file.size;
    const mimeType = file.type || 'application/octet-stream';
    added.push({
      id: `attachment-${++nextId}`,
      name: file.name,
      mimeType,
      data,
      size: file.size,
      preview: IMAGE_TYPES.has(mimeType) ? `data:${mimeType};base64,${data}` : null,
    });
  }
  return { added, refusals };
}

/** The attachments as the contract sends them. */
export function attachmentInputs(pending: readonly PendingAttachment[]): AttachmentInput[] {
  return pending.map(({ name, mimeType, data }) => ({ name, mimeType, data }));
}

/** A byte count in words: "812 bytes", "12.5 KB", "3.75 MB". */
export const formatSize = formatBytes;

// By the claimed type only, as a first answer: main checks the bytes.
function refusalFor(file: File, count: number, total: number): string | null {
  const { count: maxCount, imageBytes, textBytes, fileBytes, totalBytes } = COMPOSER_LIMITS;
  const name = file.name;
  const size = formatSize(file.size);
  if (count >= maxCount) return t('composer.tooMany', { name, max: maxCount });
  if (IMAGE_TYPES.has(file.type) && file.size > imageBytes)
    return t('composer.imageTooBig', { name, size, max: formatSize(imageBytes) });
  if (file.type.startsWith('text/') && file.size > textBytes)
    return t('composer.textTooBig', { name, size, max: formatSize(textBytes) });
  if (file.size > fileBytes) return t('composer.fileTooBig', { name, size, max: formatSize(fileBytes) });
  if (total + file.size > totalBytes) return t('composer.totalTooBig', { name, max: formatSize(totalBytes) });
  return null;
}

function readBase64(file: File): Promise<string | null> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      const comma = url.indexOf(',');
      resolve(comma >= 0 ? url.slice(comma + 1) : null);
    };
    reader.onerror = () => resolve(null);
    reader.readAsDataURL(file);
  });
}
