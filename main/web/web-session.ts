// One page's WebSocket: its requests go to the app service and the dialogs, every event comes back to it.
// Frames are never logged: a `dialog.secret` frame holds a value that must go to the store and nowhere else.
import type { WebSocket } from 'ws';
import type { Result } from '../../preload/contract';
import type { ClientMessage, ServerMessage } from '../../preload/web-protocol';
import type { AppHost } from '../host/open-app-host';
import { fail, ok, toFailure } from '../host/host-error';
import { requestObject, requiredIndex, requiredString } from '../host/request-fields';

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
    let message: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(String(data));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new Error('not an object');
      message = requestObject(parsed);
    } catch {
      return void socket.close(PROTOCOL_ERROR.invalid, 'a frame must be one JSON object');
    }
    const id = message.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id))
      return void socket.close(PROTOCOL_ERROR.policy, 'every request needs a whole-number "id"');
    void answer(host, message as Partial<ClientMessage> & Record<string, unknown>).then((result) =>
      send({ type: 'reply', id, result }),
    );
  };
  socket.on('message', onMessage);
  return () => {
    socket.off('message', onMessage);
    offEvents();
    offDialogs();
  };
}

async function answer(host: AppHost, message: Record<string, unknown>): Promise<Result<unknown>> {
  const redact = (text: string) => host.core.redactor.redact(text);
  try {
    switch (message.type as ClientMessage['type']) {
      case 'invoke':
        return await host.service.invoke(message.channel, message.request);
      case 'dialog.pending':
        return ok(host.dialogs.pending());
      case 'dialog.approval': {
        const dialogId = requiredString(message, 'dialogId', 200);
        const pending = await host.dialogs.answerApproval(
          dialogId,
          requiredIndex(message, 'index'),
          message.choice,
        );
        return ok({ pending });
      }
      case 'dialog.secret':
        host.dialogs.answerSecret(requiredString(message, 'dialogId', 200), message.answer);
        return ok({ accepted: true });
      case 'dialog.question':
        host.dialogs.answerQuestion(requiredString(message, 'dialogId', 200), message.answer);
        return ok({ accepted: true });
      case 'dialog.trust':
        host.dialogs.answerTrust(requiredString(message, 'dialogId', 200), message.answer);
        return ok({ accepted: true });
      default:
        return fail('invalid_request', `unknown message type ${JSON.stringify(message.type)}`);
    }
  } catch (error) {
    return toFailure(error, redact);
  }
}
