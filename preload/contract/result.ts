// The IPC contract, part: Results and errors: what every invoke resolves to. Types only; preload/contract.ts re-exports every part.

// ---------------------------------------------------------------------------------------------------------
// Results and errors

/** Stable error codes a handler can answer with. */
export type ErrorCode =
  /** The request is malformed (missing or wrong-typed field, empty text). */
  | 'invalid_request'
  /** No chat, task, rule, server or dialog with that id. */
  | 'not_found'
  /** The chat already runs a turn (send), or the dialog item is already answered. */
  | 'busy'
  /** Settings did not validate; the message names the field. */
  | 'invalid_settings'
  /** An attached file was refused (too large, too many, damaged, or its copy could not be saved); the message names the file and the limit (docs/attachments.md). */
  | 'attachment_refused'
  /** The host cannot do this here (no secret prompt, an MCP server not configured). */
  | 'unavailable'
  /** The request needs the person's explicit confirmation first (the home folder as a workspace: resend with `confirmHome: true`). */
  | 'confirm_required'
  /** The person said no in the dialog main showed for this request (trusting a folder). */
  | 'declined'
  /** The sender is not allowed to use this channel. */
  | 'forbidden'
  /** The bridge lost its connection to main (browser mode) before an answer came. */
  | 'disconnected'
  /** A bug or an unexpected failure in main; the message says what. */
  | 'internal';

/** An error as data. */
export interface ApiError {
  code: ErrorCode;
  message: string;
}

/** What every invoke resolves to: never a rejection for a handled failure. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** Undoes a subscription. */
export type Unsubscribe = () => void;
