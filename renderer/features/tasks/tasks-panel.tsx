// Background tasks of every chat, live: status, elapsed/limit bar, output tail and Cancel.
import { memo } from 'react';
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import { LimitBar } from '../../shared/time/limit-bar';
import { useNow } from '../../shared/time/use-now';

/** The "Background tasks" region. */
export function TasksPanel() {
  const { t } = useTranslation();
  const order = useAppStore((s) => s.taskOrder);
  return (
    <section className="tasks" aria-labelledby="tasks-heading">
      <h2 id="tasks-heading">{t('tasks.heading')}</h2>
      {order.length === 0 ? (
        <p className="muted">{t('tasks.none')}</p>
      ) : (
        <ul>
          {order.map((id) => (
            <TaskRow key={id} id={id} />
          ))}
        </ul>
      )}
    </section>
  );
}

const TaskRow = memo(function TaskRow({ id }: { id: string }) {
  const { t } = useTranslation();
  const task = useAppStore((s) => s.tasks[id]);
  const cancelTask = useAppStore((s) => s.cancelTask);
  const running = task?.status === 'running';
  const now = useNow(running, 500);
  if (!task) return null;
  const elapsed = (task.endedAt ?? now) - task.startedAt;
  return (
    <li
      className={`task status-${task.status}`}
      aria-label={t('tasks.task', { tool: task.tool })}
      data-task-id={task.id}
    >
      <div className="task-head">
        <span className="tool-name">{task.tool}</span>
        <span className={`badge status-${task.status}`}>{t(`tasks.status.${task.status}`)}</span>
        {running && (
          <button type="button" className="danger small" onClick={() => void cancelTask(task.id)}>
            {t('tasks.cancel')}
          </button>
        )}
      </div>
      <div className="task-summary" title={task.summary}>
        {task.summary}
      </div>
      <LimitBar
        elapsedMs={Math.max(0, elapsed)}
        limitMs={task.limitMs}
        live={running}
        label={t('tasks.task', { tool: task.tool })}
      />
      {task.outputTail && <pre className="output-tail">{task.outputTail.slice(-1200)}</pre>}
      {task.error && <div className="task-error">{task.error}</div>}
      {!running && task.result && <pre className="task-result">{task.result.slice(0, 600)}</pre>}
    </li>
  );
});
