// Watches every socket undici opens in this process, so a test can prove a blocked request never connected.
import diagnostics from 'node:diagnostics_channel';

/** A running watch: the remote addresses connected to so far. */
export interface ConnectionWatch {
  connectedTo: string[];
  stop(): void;
}

/** Records the remote address of each connection undici makes until stopped. */
export function watchConnections(): ConnectionWatch {
  const connectedTo: string[] = [];
  const onConnected = (message: unknown) => {
    const socket = (message as { socket?: { remoteAddress?: string } }).socket;
    connectedTo.push(socket?.remoteAddress ?? 'unknown');
  };
  diagnostics.subscribe('undici:client:connected', onConnected);
  return {
    connectedTo,
    stop: () => diagnostics.unsubscribe('undici:client:connected', onConnected),
  };
}
