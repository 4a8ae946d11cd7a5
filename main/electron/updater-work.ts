// Whether a turn or a background task runs, read from the host's own events: the updater never restarts the app
// under either (docs/release.md, "Updates"). Plain Node, so it is tested without Electron.
import type { HostEvent } from '../host/app-service';

/** Follows turns from chat events and tasks from the task registry's count. */
export class WorkWatch {
  private readonly turns = new Set<string>();

  constructor(private readonly runningTasks: () => number) {}

  /** Takes one host event; true when it may have changed whether work runs. */
  observe(event: HostEvent): boolean {
    if (event.channel === 'task.changed') return true;
    if (event.channel !== 'chat.event') return false;
    const chat = event.payload;
    if (chat.type === 'turn.started') this.turns.add(chat.chatId);
    else if (chat.type === 'turn.finished') this.turns.delete(chat.chatId);
    else return false;
    return true;
  }

  /** Whether a turn or a background task runs now. */
  busy(): boolean {
    return this.turns.size > 0 || this.runningTasks() > 0;
  }
}
