// A tool-call card: tool and source, arguments, live progress, elapsed vs limit, outcome and result; collapsible.
import { memo, useId, useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { ToolCallView } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';
import { formatDuration } from '../../shared/time/format-duration';
import { LimitBar } from '../../shared/time/limit-bar';
import { CutLine } from '../../shared/ui/cut-line';
import { useNow } from '../../shared/time/use-now';
import { callState, decisionLabel, prettyArgs, SCHEMA_LOADED_CODE, sourceLabel } from './call-labels';
import { CallProgressView } from './call-progress-view';

/** The card of the open chat's call `callId` (a draft while the model is still streaming it). */
export const ToolCallCard = memo(function ToolCallCard({ callId, name }: { callId: string; name: string }) {
  const { t } = useTranslation();
  const call = useAppStore((s) => s.chat.calls[callId]);
  const draft = useAppStore((s) => s.chat.draftCalls.includes(callId));
  if (!call || draft) {
    return (
      <div className="tool-card tone-pending" aria-label={t('call.group', { tool: name })} role="group">
        <div className="tool-card-head">
          <span className="tool-name">{name}</span>
          <span className="tool-state">{t('call.preparing')}</span>
        </div>
      </div>
    );
  }
  return <CallCard call={call} />;
});

function CallCard({ call }: { call: ToolCallView }) {
  const { t } = useTranslation();
  const state = callState(call);
  const running = call.status === 'running';
  // Open while it needs attention; a finished ok call folds to its summary.
  const [open, setOpen] = useState<boolean | null>(null);
  const expanded = open ?? (state.tone !== 'ok' && state.tone !== 'muted');
  const bodyId = useId();
  const now = useNow(running);
  const loadWholeCall = useAppStore((s) => s.loadWholeCall);
  const elapsed = running && call.startedAt ? now - call.startedAt : (call.durationMs ?? 0);
  // A call answered with its schema sums up as what the model sent; the schema itself is for the model.
  const summary = call.code === SCHEMA_LOADED_CODE ? call.args : call.result;
  return (
    <div
      className={`tool-card tone-${state.tone}`}
      role="group"
      aria-label={t('call.group', { tool: call.tool })}
      data-call-id={call.callId}
      data-state={state.label}
    >
      <div className="tool-card-head">
        <button
          type="button"
          className="link-button toggle"
          aria-expanded={expanded}
          aria-controls={bodyId}
          onClick={() => setOpen(!expanded)}
        >
          {expanded ? '▾' : '▸'} <span className="tool-name">{call.tool}</span>
        </button>
        <span className="badge">{sourceLabel(call.source)}</span>
        <span className="tool-state" data-testid="call-state">
          {state.text}
        </span>
        {call.status === 'finished' && call.durationMs !== null && (
          <span className="muted">{formatDuration(call.durationMs)}</span>
        )}
      </div>
      {(running || call.outcome === 'timed_out') && (
        <LimitBar elapsedMs={elapsed} limitMs={call.limitMs} live={running} label={call.tool} />
      )}
      {running && <CallProgressView callId={call.callId} />}
      {!expanded && summary !== null && <div className="tool-summary">{firstLine(summary)}</div>}
      <div id={bodyId} className="tool-card-body" hidden={!expanded}>
        <div className="field-label">{t('call.arguments')}</div>
        <pre className="tool-args">{call.argsCut ? call.args : prettyArgs(call.args)}</pre>
        <CutLine cut={call.argsCut} load={() => loadWholeCall(call.callId)} />
        {call.approval.state === 'decided' && (
          <div className="muted">
            {t('call.approval', { decision: decisionLabel(call.approval.decision) })}
          </div>
        )}
        {call.result !== null && (
          <>
            <div className="field-label">{call.outcome === 'ok' ? t('call.result') : t('call.message')}</div>
            <pre className="tool-result">{call.result}</pre>
            <CutLine cut={call.resultCut} load={() => loadWholeCall(call.callId)} />
          </>
        )}
      </div>
    </div>
  );
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
