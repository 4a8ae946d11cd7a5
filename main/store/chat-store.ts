// The chat history (docs/agent-loop.md, "What is saved, and when"): one SQLite file, every write committed before the call returns.
// The store must never be given secret values: callers redact arguments, results and output first.
import path from 'node:path';
import type Database from 'better-sqlite3';
import { ApprovalTable } from './approvals';
import { ChatTable } from './chats';
import type { DurabilitySettings, OpenOptions } from './connection';
import { durabilitySettings, openDatabase } from './connection';
import type { LiveLock } from './live-lock';
import { takeLiveLock } from './live-lock';
import { LoadedSchemaTable } from './loaded-schemas';
import { MessageTable } from './messages';
import { migrate } from './migrations';
import { NoteTable } from './notes';
import type { StoredGroup } from './process-groups';
import { ProcessGroupTable } from './process-groups';
import type { SearchHit, SearchOptions } from './search';
import { searchMessages } from './search';
import type { TaskRecord } from './tasks';
import { TaskTable } from './tasks';
import { TodoTable } from './todos';
import type { ToolCallRecord } from './tool-calls';
import { ToolCallTable } from './tool-calls';
import { UsageTable } from './usage';

/** The history file inside the desktop folder ($AGENVOY_HOME/desktop). */
export function chatStorePath(desktopDir: string): string {
  return path.join(desktopDir, 'agenvoy.db');
}

/** What start-up found left over from a run that did not shut down cleanly. */
export interface Recovery {
  /** Tasks that were running, now `interrupted`. */
  tasks: TaskRecord[];
  /** Assistant messages that were streaming, now `interrupted` (their last checkpoint kept). */
  messageIds: number[];
  /** Tool calls that were queued or running, now `interrupted`. */
  toolCalls: ToolCallRecord[];
  /** Process groups still recorded: hand them to killLeftoverGroups, then `processGroups.remove` each. */
  processGroups: StoredGroup[];
}

/** The result of PRAGMA integrity_check. */
export interface IntegrityResult {
  ok: boolean;
  /** ['ok'] when sound, else SQLite's list of problems. */
  messages: string[];
}

/** The chat history over one SQLite database; synchronous, and each method's write is durable when it returns. */
export class ChatStore {
  /** Chats. */
  readonly chats: ChatTable;
  /** Transcript messages, whole or streaming. */
  readonly messages: MessageTable;
  /** Notes from finished background tasks. */
  readonly notes: NoteTable;
  /** Tool calls and their outcomes. */
  readonly toolCalls: ToolCallTable;
  /** Approval requests and decisions. */
  readonly approvals: ApprovalTable;
  /** Background tasks. */
  readonly tasks: TaskTable;
  /** Live child process groups. */
  readonly processGroups: ProcessGroupTable;
  /** write_todo checklists. */
  readonly todos: TodoTable;
  /** Loaded tool schemas per chat. */
  readonly schemas: LoadedSchemaTable;
  /** Each model round's tokens and cost. */
  readonly usage: UsageTable;

  /**
   * Wraps an open, migrated database; `openChatStore` is the usual way in. `live` is this process's hold on the
   * history: without one, or when another process held it too, `recover` finds nothing to recover.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly live: LiveLock | null = null,
  ) {
    this.chats = new ChatTable(db);
    this.messages = new MessageTable(db);
    this.notes = new NoteTable(db);
    this.toolCalls = new ToolCallTable(db);
    this.approvals = new ApprovalTable(db);
    this.tasks = new TaskTable(db);
    this.processGroups = new ProcessGroupTable(db);
    this.todos = new TodoTable(db);
    this.schemas = new LoadedSchemaTable(db);
    this.usage = new UsageTable(db);
  }

  /** Runs `fn` in one transaction, so several writes commit together (or not at all, if it throws). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Marks what a crashed run left streaming, queued or running as interrupted; call once at start-up. */
  recover(): Recovery {
    // Another live process's turn is not a crash's leftover: recovery waits for a start with the history to itself.
    if (!this.live?.alone) return { tasks: [], messageIds: [], toolCalls: [], processGroups: [] };
    try {
      return this.transaction(() => ({
        tasks: this.tasks.markInterrupted(),
        messageIds: this.messages.markInterrupted(),
        toolCalls: this.toolCalls.markInterrupted(),
        processGroups: this.processGroups.live(),
      }));
    } catch (error) {
      // "database is locked", "database or disk is full": the first write of a start names the file, as opening does.
      throw new Error(`the chat history ${this.db.name} cannot be opened: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** Searches message text across chats, or in one with `chatId`. */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return searchMessages(this.db, query, options);
  }

  /** Runs PRAGMA integrity_check. */
  integrityCheck(): IntegrityResult {
    const messages = this.db.pragma('integrity_check', { simple: false }) as Array<{
      integrity_check: string;
    }>;
    const lines = messages.map((row) => row.integrity_check);
    return { ok: lines.length === 1 && lines[0] === 'ok', messages: lines };
  }

  /** The durability pragmas in force, read back from SQLite. */
  settings(): DurabilitySettings {
    return durabilitySettings(this.db);
  }

  /** Whether the database is open. */
  get open(): boolean {
    return this.db.open;
  }

  /** Closes the database (the WAL is checkpointed into the main file). */
  close(): void {
    if (this.db.open) this.db.close();
    this.live?.release();
  }
}

/** Opens (creating and migrating as needed) the history at `file`, with WAL and synchronous=FULL. */
export function openChatStore(file: string, options: OpenOptions = {}): ChatStore {
  // SQLite's own words ("file is not a database") do not say which file: a damaged history is named, and left as it
  // is (it is the only copy of the chats; docs/robustness.md).
  const named = (error: unknown) =>
    new Error(`the chat history ${file} cannot be opened: ${(error as Error).message}`, { cause: error });
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(file, options);
  } catch (error) {
    throw named(error);
  }
  let live: LiveLock | null = null;
  try {
    migrate(db);
    live = takeLiveLock(file);
    return new ChatStore(db, live);
  } catch (error) {
    db.close();
    live?.release();
    throw named(error);
  }
}
