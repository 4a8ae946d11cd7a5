// What an Electron IPC event says about its sender, for the pure sender check.
import type { IpcMainInvokeEvent } from 'electron';
import type { SenderInfo } from './sender-check';

/** The sender of an invoke: its webContents, its frame's URL, and whether that frame is the top one. */
export function senderOf(event: IpcMainInvokeEvent): SenderInfo {
  const frame = event.senderFrame;
  return {
    webContentsId: event.sender.id,
    frameUrl: frame ? frame.url : null,
    isMainFrame: frame !== null && frame === event.sender.mainFrame,
  };
}
