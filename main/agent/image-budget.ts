// The images a request carries (docs/attachments.md, "Limits"). A chat's history keeps every image it was given, but
// a request holds at most MAX_REQUEST_IMAGES of them and MAX_REQUEST_IMAGE_CHARS of base64, the newest first: older
// ones are named as left out, so a long chat never grows past what the APIs take (Anthropic: 32 MB a request, 100
// images, 2,000 px each past 20 images) and fails every turn from then on. A model that refuses images gets none
// (providers/optional-feature.ts).
import type { ContentPart } from '../../tools/sdk/types';
import type { TranscriptMessage, UserPart } from '../store/transcript';

/** The most images one request carries (past 20, Anthropic wants each at most 2,000 px). */
export const MAX_REQUEST_IMAGES = 20;
/** The most base64 characters of images one request carries (24 MiB; Anthropic takes 32 MB a request). */
export const MAX_REQUEST_IMAGE_CHARS = 24 * 1024 * 1024;

type Image = { type: 'image'; mimeType: string; data: string };
type Text = { type: 'text'; text: string };

/** `messages` with the images past the budget, oldest first, replaced by a line saying so. */
export function withinImageBudget(messages: readonly TranscriptMessage[]): TranscriptMessage[] {
  let images = 0;
  let chars = 0;
  return replaceImages(messages, (image) => {
    if (images >= MAX_REQUEST_IMAGES || chars + image.data.length > MAX_REQUEST_IMAGE_CHARS) {
      return `[an earlier image (${image.mimeType}) was left out of this request to keep it within the model's limits]`;
    }
    images += 1;
    chars += image.data.length;
    return null;
  });
}

/** The transcript with every image replaced by a line saying it was left out, for a model that refuses images. */
export function withoutImages(messages: readonly TranscriptMessage[]): TranscriptMessage[] {
  return replaceImages(
    messages,
    (image) => `[an image (${image.mimeType}) was left out: this model does not take images]`,
  );
}

/** Whether a transcript holds an image (in a user message or a tool result). */
export function hasImages(messages: readonly TranscriptMessage[]): boolean {
  return messages.some((m) =>
    m.role === 'user'
      ? m.content.some((p) => p.type === 'image')
      : m.role === 'tool_results' && m.results.some((r) => r.content.some((p) => p.type === 'image')),
  );
}

/**
 * Walks the images newest first (the last message's last image first); each one `replace` answers with a line takes
 * that line's place, the others stay. Messages without images are kept as they are.
 */
function replaceImages(
  messages: readonly TranscriptMessage[],
  replace: (image: Image) => string | null,
): TranscriptMessage[] {
  const swap = <P extends UserPart | ContentPart>(parts: readonly P[]): P[] =>
    [...parts]
      .reverse()
      .map((p): P => {
        if (p.type !== 'image') return p;
        const line = replace(p);
        return line === null ? p : ({ type: 'text', text: line } satisfies Text as P);
      })
      .reverse();
  const out = [...messages];
  for (let i = out.length - 1; i >= 0; i--) {
    const message = out[i] as TranscriptMessage;
    if (message.role === 'user') out[i] = { role: 'user', content: swap(message.content) };
    else if (message.role === 'tool_results') {
      const results = [...message.results].reverse().map((r) => ({ ...r, content: swap(r.content) }));
      out[i] = { role: 'tool_results', results: results.reverse() };
    }
  }
  return out;
}
