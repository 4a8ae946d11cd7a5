// An image part as the request carries it: only what its bytes are, within what the APIs take (docs/security.md, "A
// hostile MCP server"; docs/attachments.md). A tool result's image is a claim by whoever made it (an MCP server, a
// script tool): a request holding one the API cannot read (another type than claimed, not base64, not an image,
// past 8000 pixels on a side) is refused whole, and since the chat's history keeps it, so was every later turn.
import { ATTACHMENT_LIMITS, formatBytes } from '../attachments-limits';
import { sniffType } from '../attachments-sniff';

/** Image types both APIs accept inline; anything else is described in text instead of failing the request. */
export const WIRE_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);

/** An image the APIs take, with the type its bytes are, or the words that stand in for it. */
export type CheckedImage = { mimeType: string; note: null } | { mimeType: null; note: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Checks `data` (base64) claimed as `claimed` by its bytes. */
export function checkWireImage(claimed: string, data: string): CheckedImage {
  const type = claimed.toLowerCase() === 'image/jpg' ? 'image/jpeg' : claimed.toLowerCase();
  const shown = claimed.slice(0, 100);
  if (!WIRE_IMAGE_TYPES.has(type))
    return refused(`[image of type ${shown} not shown: the model accepts PNG, JPEG, GIF and WebP]`);
  const not = (why: string) => refused(`[image (${shown}) not shown: ${why}]`);
  if (data.length % 4 !== 0 || !BASE64.test(data)) return not('its data is not valid base64');
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > ATTACHMENT_LIMITS.imageBytes)
    return not(
      `it is ${formatBytes(bytes.length)}; the model takes at most ${formatBytes(ATTACHMENT_LIMITS.imageBytes)} an image`,
    );
  const sniffed = sniffType(bytes);
  switch (sniffed.kind) {
    case 'image':
      if (Math.max(sniffed.width, sniffed.height) > ATTACHMENT_LIMITS.imageSide)
        return not(
          `it is ${sniffed.width}×${sniffed.height} pixels; the model takes at most ${ATTACHMENT_LIMITS.imageSide} on a side`,
        );
      // Sent as what it is: an API refuses an image whose bytes are not the type the request names.
      return { mimeType: sniffed.mimeType, note: null };
    case 'damaged_image':
      return not(
        `it starts like a ${sniffed.mimeType.slice(6).toUpperCase()} image but is damaged (${sniffed.reason})`,
      );
    default:
      return not('its bytes are not a PNG, JPEG, GIF or WebP image');
  }
}

function refused(note: string): CheckedImage {
  return { mimeType: null, note };
}
