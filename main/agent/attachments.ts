// Files the person attaches to a message (docs/attachments.md): checked, copied into the chat's workspace, and turned
// into the user message's parts — for each file a line saying its name and where its copy is, then the image or the
// file's text. Hosts call checkAttachmentInputs (a request's field) or checkAttachments (files the CLI read), then
// saveAttachments once the send will happen, then attachmentParts for the turn.
import type { UserPart } from '../store/transcript';
import type { CheckedAttachment } from './attachments-check';
import { checkAttachments, readAttachmentInputs } from './attachments-check';
import { formatBytes } from './attachments-limits';
import type { SavedAttachment } from './attachments-save';

export { AttachmentError, checkAttachments } from './attachments-check';
export type { CheckedAttachment, RawAttachment } from './attachments-check';
export { ATTACHMENT_LIMITS } from './attachments-limits';
export { discardSaved, saveAttachments } from './attachments-save';
export type { SavedAttachment } from './attachments-save';

/** Reads and checks a request's untrusted `attachments` field; nothing is written. Throws AttachmentError. */
export function checkAttachmentInputs(value: unknown): CheckedAttachment[] {
  return checkAttachments(readAttachmentInputs(value));
}

// How the line about each file ends: what follows it in the message.
const FOLLOWS = {
  image: 'the image follows.',
  text: 'its text follows.',
  empty: 'it is empty.',
  file: 'it is not sent to the model (not an image or text); tools can read it there.',
} as const;

/** The parts that follow the typed text in the user message: for each file its line, then its image or text. */
export function attachmentParts(saved: readonly SavedAttachment[]): UserPart[] {
  return saved.flatMap((file): UserPart[] => {
    const { content } = file;
    const size = formatBytes(file.bytes.length);
    switch (content.kind) {
      case 'image':
        return [
          { type: 'text', text: line(file, `${size}, ${content.width}×${content.height} px`, FOLLOWS.image) },
          { type: 'image', mimeType: content.mimeType, data: Buffer.from(file.bytes).toString('base64') },
        ];
      case 'text': {
        const svg =
          content.mimeType === 'image/svg+xml' ? ', sent as text: an SVG is never sent as an image' : '';
        if (content.text === '') return [{ type: 'text', text: line(file, size, FOLLOWS.empty) }];
        return [
          { type: 'text', text: line(file, `${size}${svg}`, FOLLOWS.text) },
          { type: 'text', text: content.text },
        ];
      }
      case 'file':
        return [{ type: 'text', text: line(file, size, FOLLOWS.file) }];
    }
  });
}

// `Attachment "notes.md" (text/markdown, 2 KB) is saved in the workspace as "attachments/notes.md"; its text follows.`
function line(file: SavedAttachment, details: string, follows: string): string {
  return (
    `Attachment ${JSON.stringify(file.name)} (${file.content.mimeType}, ${details}) is saved in the workspace as ` +
    `${JSON.stringify(file.path)}; ${follows}`
  );
}

const LINE =
  /^Attachment ("(?:[^"\\]|\\.)*") \(([^,()\s]+), [^\n]*\) is saved in the workspace as ("(?:[^"\\]|\\.)*"); (.*)$/s;

/** What a stored user message shows: the typed text, and the files it carried. */
export interface UserMessageParts {
  text: string;
  attachments: Array<{ name: string; mimeType: string; path: string | null }>;
}

/**
 * Reads a stored user message back: the first part is what was typed; after it come the attachment lines and what
 * each says follows. An image without a line of its own (older history) is listed as an image.
 */
export function readUserParts(parts: readonly UserPart[]): UserMessageParts {
  const [first, ...rest] = parts;
  const attachments: UserMessageParts['attachments'] = [];
  let text = first?.type === 'text' ? first.text : '';
  if (first?.type === 'image') rest.unshift(first);
  for (let i = 0; i < rest.length; i++) {
    const part = rest[i] as UserPart;
    if (part.type === 'image') {
      attachments.push({ name: 'image', mimeType: part.mimeType, path: null });
      continue;
    }
    const match = LINE.exec(part.text);
    const parsed = match ? parseLine(match) : null;
    if (!parsed) {
      // Text that is not an attachment line (a message from before attachments) stays part of the text.
      text = text === '' ? part.text : `${text}\n${part.text}`;
      continue;
    }
    attachments.push(parsed.attachment);
    if (parsed.follows) i++;
  }
  return { text, attachments };
}

function parseLine(match: RegExpExecArray): {
  attachment: UserMessageParts['attachments'][number];
  follows: boolean;
} | null {
  try {
    const name = JSON.parse(match[1] as string) as string;
    const path = JSON.parse(match[3] as string) as string;
    const tail = match[4] as string;
    return {
      attachment: { name, mimeType: match[2] as string, path },
      follows: tail === FOLLOWS.image || tail === FOLLOWS.text,
    };
  } catch {
    return null;
  }
}
