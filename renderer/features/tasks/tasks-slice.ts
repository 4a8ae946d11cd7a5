// Background tasks of every chat, live: listed once, then kept current by task.changed events.
import type { TaskItem } from '../../../preload/contract';
import type { SliceCreator } from '../../store/app-state';
import { invoke } from '../../boot/bridge';
import { t } from '../../i18n/i18n';

/** The tasks panel's state. */
export interface TasksSlice {
  tasks: Record<string, TaskItem>;
  /** Task ids, newest first. */
  taskOrder: string[];
  loadTasks(): Promise<void>;
  taskChanged(task: TaskItem): void;
  cancelTask(taskId: string): Promise<void>;
}

/** Creates the tasks slice. */
export const createTasksSlice: SliceCreator<TasksSlice> = (set, get) => ({
  tasks: {},
  taskOrder: [],
  async loadTasks() {
    const result = await invoke('tasks.list', {});
    if (!result.ok)
      return get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.listTasks'), message: result.error.message }),
      );
    const tasks: Record<string, TaskItem> = {};
    for (const task of result.value) tasks[task.id] = task;
    set({ tasks, taskOrder: result.value.map((t) => t.id).reverse() });
  },
  taskChanged(task) {
    set((s) => {
      const old = s.tasks[task.id];
      // Events can overtake a list answer; a finished task never goes back to running.
      if (old && old.status !== 'running' && task.status === 'running') return {};
      return {
        tasks: { ...s.tasks, [task.id]: task },
        taskOrder: old ? s.taskOrder : [task.id, ...s.taskOrder],
      };
    });
  },
  async cancelTask(taskId) {
    const result = await invoke('tasks.cancel', { taskId });
    if (!result.ok)
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.cancel'), message: result.error.message }),
      );
    else if (!result.value.cancelled) get().pushNotice('info', t('notices.taskEnded'));
  },
});
