// The browser-mode wire format over the WebSocket (types only): requests carry an id and get one reply each;
// events and dialog events are pushed. A secret answer is its own message type, so no generic path carries it.
import type {
  ApprovalChoice,
  DialogEvent,
  EventChannel,
  EventPayload,
  InvokeChannel,
  QuestionAnswer,
  Result,
  SecretAnswer,
  TrustAnswer,
} from './contract';

/** The path of the WebSocket, next to the page; its query carries a key derived from the page's token and a nonce. */
export type WebSocketPath = '/ws';

/** What the page sends. */
export type ClientMessage =
  | { type: 'invoke'; id: number; channel: InvokeChannel; request: unknown }
  | { type: 'dialog.pending'; id: number }
  | { type: 'dialog.approval'; id: number; dialogId: string; index: number; choice: ApprovalChoice }
  /** The only message that ever carries a secret value; main stores it and keeps no copy. */
  | { type: 'dialog.secret'; id: number; dialogId: string; answer: SecretAnswer }
  | { type: 'dialog.question'; id: number; dialogId: string; answer: QuestionAnswer }
  | { type: 'dialog.trust'; id: number; dialogId: string; answer: TrustAnswer };

/** What main sends. */
export type ServerMessage =
  /** The first frame on a page's socket: main's proof that it holds the page's token (web-handshake.ts). */
  | { type: 'hello'; proof: string }
  /** The reply to the request with the same id. */
  | { type: 'reply'; id: number; result: Result<unknown> }
  | { [E in EventChannel]: { type: 'event'; channel: E; payload: EventPayload<E> } }[EventChannel]
  | { type: 'dialog'; event: DialogEvent };

/** The WebSocket close code main uses when the host shuts down (the page stops reconnecting). */
export type HostClosingCode = 4000;

/**
 * The largest frame a page may send, in bytes (32 MiB): a message with the most attachments allowed, about 21.4 MiB of
 * base64, and the longest text fit (docs/attachments.md). The bridge refuses a bigger request without sending it;
 * main closes a socket that sends one anyway (1009).
 */
export type MaxFrameBytes = 33_554_432;
