// Ports the agent loop gives its fixed-set tools: questions to the user, the chat's checklist, history and results.

/** One question of ask_user. */
export interface Question {
  id: string;
  prompt: string;
  /** text: free answer; single: one of options; multiple: any of options. */
  kind: 'text' | 'single' | 'multiple';
  options: string[];
}

/** The user's answers by question id, or why no one answered. */
export type AskResult =
  { answered: true; answers: Record<string, string | string[]> } | { answered: false; reason: string };

/** Asks the user questions (a dialog in the app, the terminal in the CLI). */
export interface AskUserPort {
  ask(chatId: string, questions: Question[], signal: AbortSignal): Promise<AskResult>;
}

/** One item of the write_todo checklist. */
export interface TodoItem {
  text: string;
  status: 'pending' | 'in_progress' | 'done';
}

/** One entry of the chat's history as chat_history shows it. */
export interface HistoryEntry {
  id: number;
  kind: 'user' | 'assistant' | 'tool_call' | 'note';
  at: number;
  text: string;
}

/** A deliverable write_result saved into the workspace. */
export interface ResultFile {
  path: string;
  title: string;
  bytes: number;
}

/** The chat a tool runs in: its checklist, its history and its deliverables. */
export interface ChatPort {
  setTodos(chatId: string, items: TodoItem[]): void;
  getTodos(chatId: string): TodoItem[];
  /** Messages and tool actions, oldest first; `query` filters by full-text search. */
  history(chatId: string, options: { query?: string; limit: number; offset: number }): HistoryEntry[];
  /** One entry in full. */
  entry(chatId: string, id: number): HistoryEntry | undefined;
  /** Records and announces a deliverable. */
  publishResult(chatId: string, result: ResultFile): void;
}

/** One subtask for a subagent. */
export interface SubagentTask {
  prompt: string;
  /** A short label for the UI and the answer. */
  title: string;
}

/** How a subagent's child chat ended. */
export interface SubagentAnswer {
  chatId: string;
  status: 'completed' | 'failed' | 'cancelled';
  text: string;
  error?: string;
}

/** Runs subtasks in child chats (docs/hosts.md, "What each host offers": a child chat has no subagents, background_*, ask_user or store_secret). */
export interface SubagentPort {
  /**
   * `heal` is the calling turn's credential-prompt budget (ToolServices.heal): the child's turn draws on it, so
   * subagents never open more prompts for a tool than the turn that started them may (docs/secrets.md, "Credential
   * auto-heal").
   */
  run(
    parentChatId: string,
    task: SubagentTask,
    signal: AbortSignal,
    heal?: { take(tool: string): boolean },
  ): Promise<SubagentAnswer>;
}
