// What both wire formats share when rendering content: tool output parts, images, tool-call arguments.
import type { ContentPart } from '../../../tools/sdk/types';
import { checkWireImage } from './wire-image';

/** A part either API can carry: text or an inline base64 image. */
export type WirePart = { type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string };

/** Tool or user content as wire parts: resources become text (or images), empty text is dropped. */
export function toWireParts(parts: readonly ContentPart[]): WirePart[] {
  const out: WirePart[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text !== '') out.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') {
      out.push(imagePart(part.mimeType, part.data));
    } else if (part.text !== undefined) {
      out.push({ type: 'text', text: `[resource ${part.uri}]\n${part.text}` });
    } else if (part.blob !== undefined && part.mimeType?.startsWith('image/')) {
      out.push(imagePart(part.mimeType, part.blob));
    } else {
      const type = part.mimeType ? ` (${part.mimeType})` : '';
      out.push({ type: 'text', text: `[resource ${part.uri}${type}: binary content not shown]` });
    }
  }
  return out;
}

// docs/security.md, "A hostile MCP server": an image goes as what its bytes are, or in words (wire-image.ts).
function imagePart(mimeType: string, data: string): WirePart {
  const checked = checkWireImage(mimeType, data);
  return checked.mimeType === null
    ? { type: 'text', text: checked.note }
    : { type: 'image', mimeType: checked.mimeType, data };
}

/** A tool call's raw argument text as the wire needs it: a JSON object, or `{}` when it was not one. */
export interface WireArguments {
  /** The parsed object (`{}` when the raw text was not a JSON object). */
  object: Record<string, unknown>;
  /** The text to send: the raw text itself when it was a JSON object, else `{}`. */
  text: string;
  /** False when the raw text was not a JSON object: the call's result should say what was sent. */
  valid: boolean;
}

/** Normalises a model's raw tool-call arguments so the transcript stays acceptable to the API. */
export function wireArguments(raw: string): WireArguments {
  // A tool without parameters streams no argument text at all; that is an empty object, not an error.
  if (raw.trim() === '') return { object: {}, text: '{}', valid: true };
  try {
    const value: unknown = JSON.parse(raw);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return { object: value as Record<string, unknown>, text: raw, valid: true };
    }
  } catch {
    // Fall through: malformed JSON from the model.
  }
  return { object: {}, text: '{}', valid: false };
}

const NOTE_LIMIT = 4000;

/** The note added to a result whose call had malformed arguments, so the model sees what it sent. */
export function invalidArgumentsNote(raw: string): string {
  const shown =
    raw.length > NOTE_LIMIT ? `${raw.slice(0, NOTE_LIMIT)}… (${raw.length} characters in all)` : raw;
  return `(The arguments of this call were not a valid JSON object, so the history shows {} instead. As sent: ${shown})`;
}
