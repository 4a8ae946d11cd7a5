// The images one request carries (docs/attachments.md, "Limits"): a chat's history keeps every image it was given,
// but a request holds at most MAX_REQUEST_IMAGES of them and MAX_REQUEST_IMAGE_CHARS of base64, the newest first.
// Older ones are named as left out, so a long chat never grows past what the APIs take (Anthropic: 32 MB a request,
// 100 images, 2,000 px each past 20 images) and fails every turn from then on.
import type { ContentPart } from '../../tools/sdk/types';
import type { TranscriptMessage, UserPart } from '../store/transcript';

/** The most images one request carries (past 20, Anthropic wants each at most 2,000 px). */
export const MAX_REQUEST_IMAGES = 20;
/** The most base64 characters of images one request carries (24 MiB; Anthropic takes 32 MB a request). */
export const MAX_REQUEST_IMAGE_CHARS = 24 * 1024 * 1024;

type Image = { type: 'image'; mimeType: string; data: string };

/** `messages` with the images past the budget, oldest first, replaced by a line saying so. */
export function withinImageBudget(messages: readonly TranscriptMessage[]): TranscriptMessage[] {
  let images = 0;
  let chars = 0;
  const keep = (image: Image): boolean => {
    if (images >= MAX_REQUEST_IMAGES || chars + image.data.length > MAX_REQUEST_IMAGE_CHARS) return false;
    images += 1;
    chars += image.data.length;
    return true;
  };
  const note = (image: Image) => ({
    type: 'text' as const,
    text: `[an earlier image (${image.mimeType}) was left out of this request to keep it within the model's limits]`,
  });
  const out = [...messages];
  // Newest first, so what the person just gave is what goes.
  for (let i = out.length - 1; i >= 0; i--) {
    const message = out[i] as TranscriptMessage;
    if (message.role === 'user') {
      if (!message.content.some((p) => p.type === 'image')) continue;
      const content = [...message.content]
        .reverse()
        .map((p): UserPart => (p.type === 'image' && !keep(p) ? note(p) : p));
      out[i] = { role: 'user', content: content.reverse() };
    } else if (message.role === 'tool_results') {
      if (!message.results.some((r) => r.content.some((p) => p.type === 'image'))) continue;
      const results = [...message.results].reverse().map((r) => {
        const content = [...r.content]
          .reverse()
          .map((p): ContentPart => (p.type === 'image' && !keep(p) ? note(p) : p));
        return { ...r, content: content.reverse() };
      });
      out[i] = { role: 'tool_results', results: results.reverse() };
    }
  }
  return out;
}
