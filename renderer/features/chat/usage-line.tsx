// The quiet usage lines: one under each turn, and the chat's total in its bar.
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import type { UsageTotal } from './usage-sum';
import { chatUsage, turnUsages } from './usage-sum';
import { usageText } from './usage-text';

/** The usage of the turn that `messageId` ends; nothing for a message inside a turn or a turn without usage. */
export function TurnUsageLine({ messageId }: { messageId: number }) {
  const { t } = useTranslation();
  const total = useAppStore((s) => turnUsages(s.chat.messages, s.chat.running).get(messageId) ?? null);
  if (!total) return null;
  return <UsageNote total={total} className="turn-usage" label={t('usage.turn')} testId="turn-usage" />;
}

/** The open chat's usage over every round, for its bar. */
export function ChatUsageTotal() {
  const { t } = useTranslation();
  const total = useAppStore((s) => chatUsage(s.chat.messages, s.chat.running));
  if (!total) return null;
  return (
    <UsageNote
      total={total}
      className="chat-usage"
      label={t('usage.chat')}
      testId="chat-usage"
      prefix={t('usage.total')}
    />
  );
}

interface UsageNoteProps {
  total: UsageTotal;
  className: string;
  label: string;
  testId: string;
  prefix?: string;
}

function UsageNote({ total, className, label, testId, prefix = '' }: UsageNoteProps) {
  const { text, note } = usageText(total);
  return (
    <div className={className} role="note" aria-label={label} data-testid={testId} title={note || undefined}>
      {prefix}
      {text}
    </div>
  );
}
