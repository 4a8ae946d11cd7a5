// What the model reasoned in one round, collapsed under its answer; open while the reasoning itself streams.
import { useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { AssistantPartView } from '../../../preload/contract';
import { shownProse } from './hidden-characters';

/** The reasoning of one assistant message's parts, or nothing when it has none. */
export function ReasoningDisclosure({
  parts,
  streaming,
}: {
  parts: AssistantPartView[];
  streaming: boolean;
}) {
  // null: follow the stream (open while reasoning arrives, closed after); set once the person opens or closes it.
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<boolean | null>(null);
  const texts = parts.flatMap((p) => (p.type === 'reasoning' && p.text !== '' ? [p.text] : []));
  if (texts.length === 0) return null;
  const live = streaming && parts[parts.length - 1]?.type === 'reasoning';
  const open = chosen ?? live;
  return (
    <details
      className="reasoning"
      data-testid="reasoning"
      open={open}
      onToggle={(event) => {
        // React setting `open` fires toggle too; only a change it did not make is the person's.
        if (event.currentTarget.open !== open) setChosen(event.currentTarget.open);
      }}
    >
      <summary>{live ? t('chat.reasoningLive') : t('chat.reasoning')}</summary>
      {/* Bidi controls as escapes, as in the reply itself (hidden-characters.ts). */}
      <div className="reasoning-text">{shownProse(texts.join('\n\n'))}</div>
    </details>
  );
}
