// The IPC contract, part: files the person gives with a message (docs/attachments.md). Types only;
// preload/contract.ts re-exports every part.

/**
 * A file the person gives with a message (pasted, dropped or picked): its name, type and bytes as base64. Main reads
 * its real type from the bytes, applies the limits (refused: `attachment_refused`), copies it into the chat's
 * workspace under `attachments/` and sends it to the model (docs/attachments.md).
 */
export interface AttachmentInput {
  name: string;
  mimeType: string;
  /** The file's bytes, base64. */
  data: string;
}

/**
 * The attachment limits as literal types (docs/attachments.md, "Limits"): main enforces them and the composer refuses
 * early with them; each side declares its numbers with this type, so the compiler keeps them equal.
 */
export interface AttachmentLimits {
  /** Files per message. */
  count: 10;
  /** An image sent to the model (3.75 MiB: 5 MiB of base64). */
  imageBytes: 3_932_160;
  /** A text file sent to the model (512 KiB). */
  textBytes: 524_288;
  /** A file only saved for tools (10 MiB). */
  fileBytes: 10_485_760;
  /** All of one message's files (16 MiB). */
  totalBytes: 16_777_216;
}

/** A file a user message carried, as its message shows it (docs/attachments.md). */
export interface AttachedFileView {
  /** The file's name as given (invisible characters removed). */
  name: string;
  /** Its real type, read from its bytes. */
  mimeType: string;
  /** Where its copy is, relative to the chat's workspace (`attachments/…`); null when not known. */
  path: string | null;
}
