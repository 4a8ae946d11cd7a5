// The Electron IPC channel names shared by the preloads and main/electron (no imports: preloads are bundled alone).

/** The chat window's invoke channel: `(contractChannel, request) → Result`. */
export const INVOKE_CHANNEL = 'agenvoy:invoke';

/** The chat window's event channel: `(contractChannel, payload)`. */
export const EVENT_CHANNEL = 'agenvoy:event';

/** The argument that hands a dialog window its one-shot channel: `--agenvoy-dialog=<channel>`. */
export const DIALOG_ARGUMENT = '--agenvoy-dialog=';

/** A dialog window's one-shot channel; its events come on `<channel>:event`. */
export const DIALOG_CHANNEL_PREFIX = 'agenvoy:dialog:';

/** The suffix of a dialog channel's event channel. */
export const DIALOG_EVENT_SUFFIX = ':event';
