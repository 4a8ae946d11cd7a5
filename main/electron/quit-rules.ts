// Quitting stops every child process, task and MCP server the app started, asking first when tasks run (docs/hosts.md, "The desktop app").

/** What quitting should do now. */
export type QuitStep = { kind: 'stop_now' } | { kind: 'ask'; message: string; detail: string };

/** Asks first when background tasks run; otherwise stops at once. */
export function quitStep(runningTasks: number): QuitStep {
  if (runningTasks === 0) return { kind: 'stop_now' };
  const tasks = runningTasks === 1 ? '1 background task is' : `${runningTasks} background tasks are`;
  return {
    kind: 'ask',
    message: `${tasks} still running. Quit anyway?`,
    detail: 'Quitting cancels them and stops every command and MCP server the app started.',
  };
}

/** The buttons of the quit question; index 0 quits. */
export const QUIT_BUTTONS = ['Quit and cancel tasks', 'Keep running'] as const;
