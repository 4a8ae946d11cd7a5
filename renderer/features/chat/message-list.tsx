// The open chat's messages, virtualised so a chat of thousands of messages opens and scrolls fast; each turn ends with
// its usage line.
import { useCallback } from 'react';
import { Trans, useTranslation } from '../../i18n/i18n';
import type { MessageView } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';
import { VirtualList } from '../../shared/virtual/virtual-list';
import { MessageRow } from './message-row';
import { TurnUsageLine } from './usage-line';

const keyOf = (message: MessageView) => `${message.kind[0]}${message.id}`;

/** The message list of the open chat, following the end while the user is there. */
export function MessageList() {
  const { t } = useTranslation();
  const messages = useAppStore((s) => s.chat.messages);
  const chatId = useAppStore((s) => s.chat.chatId);
  const workspace = useAppStore((s) => s.chat.summary?.workspace ?? null);
  const render = useCallback(
    (message: MessageView) => (
      <>
        <MessageRow message={message} />
        {message.kind === 'assistant' && <TurnUsageLine messageId={message.id} />}
      </>
    ),
    [],
  );
  if (messages.length === 0) {
    return (
      <div className="messages empty">
        <p>{t('chat.noMessages')}</p>
        {workspace && (
          // docs/security.md, "Default workspace": a new chat says where its tools read and write.
          <p className="muted">
            <Trans
              i18nKey="chat.worksIn"
              values={{ workspace }}
              components={{ path: <span className="path" /> }}
            />
          </p>
        )}
      </div>
    );
  }
  return (
    <VirtualList
      key={chatId ?? ''}
      className="messages"
      label={t('chat.conversation')}
      items={messages}
      keyOf={keyOf}
      render={render}
      estimate={90}
      followEnd
    />
  );
}
