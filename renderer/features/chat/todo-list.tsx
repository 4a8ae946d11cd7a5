// The write_todo checklist of the open chat.
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';

const marks = { pending: '☐', in_progress: '◐', done: '☑' } as const;

/** The checklist, shown once the agent wrote one. */
export function TodoList() {
  const { t } = useTranslation();
  const todos = useAppStore((s) => s.chat.todos);
  if (todos.length === 0) return null;
  const done = todos.filter((t) => t.status === 'done').length;
  return (
    <section className="todo" aria-label={t('chat.checklist')}>
      <h2>
        {t('chat.checklist')}{' '}
        <span className="muted">
          {done}/{todos.length}
        </span>
      </h2>
      <ul>
        {todos.map((todo, i) => (
          <li key={i} className={todo.status}>
            <span aria-hidden="true">{marks[todo.status]}</span> {todo.text}
            <span className="visually-hidden"> ({t(`chat.todo.${todo.status}`)})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
