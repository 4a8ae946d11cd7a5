// THE IPC contract between main and the renderer (types only, self-contained): every invoke channel with its
// request and result, every event channel with its payload, and the two surfaces a page gets:
// - `Api` (window.agenvoy): the chat window's only way into main. It can read, chat, cancel and configure,
//   but it has NO way to approve a tool call or hand over a secret.
// - `DialogApi` (window.agenvoyDialog): the modal dialogs (approval, secret, question). In Electron each dialog
//   is its own window owned by main, with its own preload and a one-shot channel; in browser mode the page shows
//   them as in-page modals over the same WebSocket, and a secret travels on its own message.
// Errors cross the boundary as data (`{ ok: false, error }`), because Electron strips thrown errors.
// Everything main sends here is redacted and never holds a secret value.
// The parts live in preload/contract/ (one concept each); this file is the one place everyone imports from.

export type * from './contract/result';
export type * from './contract/views';
export type * from './contract/settings-views';
export type * from './contract/model-views';
export type * from './contract/attachment-views';
export type * from './contract/security-views';
export type * from './contract/channels';
export type * from './contract/dialogs';
export type * from './contract/update-views';
