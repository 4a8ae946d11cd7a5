// What a page sends over browser mode's WebSocket (preload/web-protocol.ts `ClientMessage`), as zod schemas: a frame
// is untrusted until it passes here. The envelope (type, id, dialog id, item index) is checked here; what rides in it
// (an invoke's channel and request, an approval choice, a dialog answer) is checked where it is used, by the app
// service and the dialog hub that Electron's windows share. Server side only: the page's bundle carries no zod.
import { z } from 'zod';
import type { ClientMessage } from '../../preload/web-protocol';

/** The longest dialog id accepted (main's ids are UUIDs). */
const MAX_DIALOG_ID = 200;

/** Why a frame that is not a request was refused: the socket is closed with this code and reason. */
export type FrameRefusal = { code: 'invalid' | 'policy'; reason: string };

const NOT_AN_OBJECT = 'a frame must be one JSON object';
const NO_ID = 'every request needs a whole-number "id"';

/** The part every request shares: an object with a whole-number id (the reply names it). */
const envelopeSchema = z.object({ id: z.int() });

const requestId = z.int();
const dialogId = z
  .string({ error: '"dialogId" must be a non-empty string' })
  .refine((value) => value.trim() !== '', { error: '"dialogId" must be a non-empty string' })
  .max(MAX_DIALOG_ID, { error: `"dialogId" is longer than ${MAX_DIALOG_ID} characters` });
const itemIndex = z
  .int({ error: '"index" must be a non-negative integer' })
  .min(0, { error: '"index" must be a non-negative integer' });
/** Checked by its reader (the app service, the dialog hub); absent reads as an empty request. */
const payload = z.unknown().optional();

/** Every message the page may send, told apart by `type`. Unknown fields are accepted and dropped. */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('invoke'),
    id: requestId,
    // The app service knows the channels and names an unknown one.
    channel: z.string({ error: '"channel" must be a string' }),
    request: payload,
  }),
  z.object({ type: z.literal('dialog.pending'), id: requestId }),
  z.object({
    type: z.literal('dialog.approval'),
    id: requestId,
    dialogId,
    index: itemIndex,
    choice: payload,
  }),
  z.object({ type: z.literal('dialog.secret'), id: requestId, dialogId, answer: payload }),
  z.object({ type: z.literal('dialog.question'), id: requestId, dialogId, answer: payload }),
  z.object({ type: z.literal('dialog.trust'), id: requestId, dialogId, answer: payload }),
]);

/** A client message as the schema hands it over. */
export type CheckedClientMessage = z.infer<typeof clientMessageSchema>;

/** The request id of a frame, or why the frame is no request (it cannot be answered: it has no id). */
export function readRequestId(frame: unknown): { id: number } | FrameRefusal {
  const parsed = envelopeSchema.safeParse(frame);
  if (parsed.success) return { id: parsed.data.id };
  const notObject = parsed.error.issues.some((issue) => issue.path.length === 0);
  return notObject ? { code: 'invalid', reason: NOT_AN_OBJECT } : { code: 'policy', reason: NO_ID };
}

/** A request checked against the protocol, or a message saying what is wrong with it (it names no value). */
export function readClientMessage(
  frame: unknown,
): { ok: true; message: CheckedClientMessage } | { ok: false; error: string } {
  const parsed = clientMessageSchema.safeParse(frame);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  if (issue?.code === 'invalid_union' && issue.path.length === 1 && issue.path[0] === 'type') {
    return { ok: false, error: `unknown message type ${preview((frame as { type?: unknown }).type)}` };
  }
  return { ok: false, error: issue?.message ?? 'the request does not fit the protocol' };
}

/** A short, bounded rendering of an unknown message type. */
function preview(value: unknown): string {
  if (typeof value === 'string')
    return value.length > 100 ? `${JSON.stringify(value.slice(0, 100))}…` : JSON.stringify(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || value === undefined)
    return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

// Compile-time: the schema checks exactly the protocol's messages, with their payloads (and the channel name) left
// to the readers named above. A change to ClientMessage that the schema does not follow fails the type check.
type Payload = 'request' | 'choice' | 'answer';
type Flat<T> = { [K in keyof T]: T[K] };
type AsChecked<M> = M extends unknown
  ? Flat<
      { [K in Exclude<keyof M, Payload | 'channel'>]: M[K] } & {
        [K in Extract<keyof M, Payload>]?: unknown;
      } & {
        [K in Extract<keyof M, 'channel'>]: string;
      }
    >
  : never;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type _SchemaMatchesProtocol = Assert<Equal<CheckedClientMessage, AsChecked<ClientMessage>>>;
