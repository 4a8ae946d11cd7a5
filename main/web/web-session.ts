// One page's WebSocket: its requests go to the app service and the dialogs, every event comes back to it.
// Frames are never logged: a `dialog.secret` frame holds a value that must go to the store and nowhere else.
import type { WebSocket } from 'ws';
import type { Result } from '../../preload/contract';
import type { ServerMessage } from '../../preload/web-protocol';
import type { AppHost } from '../host/open-app-host';
import { fail, ok, toFailure } from '../host/host-error';
import { readClientMessage, readRequestId } from './client-message-schema';

/** WebSocket close codes for frames that are not requests (RFC 6455 §7.4.1). */
export const PROTOCOL_ERROR = { unsupported: 1003, invalid: 1007, policy: 1008 } as const;

/** Binds a socket to the host; returns the undo (called when the socket closes). */
export function bindSocket(socket: WebSocket, host: AppHost): () => void {
  const send = (message: ServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const offEvents = host.service.on((event) => send({ type: 'event', ...event } as ServerMessage));
  const offDialogs = host.dialogs.attach({ present: (event) => send({ type: 'dialog', event }) });
  const onMessage = (data: unknown, isBinary: boolean) => {
    // A frame that is not a request cannot be answered (it has no id): the socket is closed, saying why. The
    // page reconnects; a well-behaved page never sends one.
    if (isBinary)
      return void socket.close(PROTOCOL_ERROR.unsupported, 'binary frames are not accepted: send JSON text');
    let frame: unknown;
    try {
      frame = JSON.parse(String(data));
    } catch {
      return void socket.close(PROTOCOL_ERROR.invalid, 'a frame must be one JSON object');
    }
    const request = readRequestId(frame);
    if (!('id' in request)) return void socket.close(PROTOCOL_ERROR[request.code], request.reason);
    void answer(host, frame).then((result) => send({ type: 'reply', id: request.id, result }));
  };
  socket.on('message', onMessage);
  return () => {
    socket.off('message', onMessage);
    offEvents();
    offDialogs();
  };
}

/** Checks a request against the protocol (client-message-schema.ts) and runs it; every failure is a Result. */
async function answer(host: AppHost, frame: unknown): Promise<Result<unknown>> {
  const redact = (text: string) => host.core.redactor.redact(text);
  try {
    const checked = readClientMessage(frame);
    if (!checked.ok) return fail('invalid_request', redact(checked.error));
    const message = checked.message;
    switch (message.type) {
      case 'invoke':
        return await host.service.invoke(message.channel, message.request);
      case 'dialog.pending':
        return ok(host.dialogs.pending());
      case 'dialog.approval':
        return ok({
          pending: await host.dialogs.answerApproval(message.dialogId, message.index, message.choice),
        });
      case 'dialog.secret':
        host.dialogs.answerSecret(message.dialogId, message.answer);
        return ok({ accepted: true });
      case 'dialog.question':
        host.dialogs.answerQuestion(message.dialogId, message.answer);
        return ok({ accepted: true });
      case 'dialog.trust':
        host.dialogs.answerTrust(message.dialogId, message.answer);
        return ok({ accepted: true });
    }
  } catch (error) {
    return toFailure(error, redact);
  }
}
