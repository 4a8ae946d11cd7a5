// Events of a chat turn, for the UI and `agenvoy chat --json`. Everything here is already redacted and committed.
import type { CallEvent } from '../core/dispatcher';
import type { TokenUsage } from './providers/provider';
import type { TaskView } from '../../tools/sdk/types';
import type { ResultFile, TodoItem } from '../../tools/sdk/chat-ports';

/** How a turn ended. */
export type TurnStatus = 'completed' | 'cancelled' | 'failed';

/** One event of a turn or of a chat. */
export type TurnEvent =
  | { type: 'turn.started'; chatId: string; turnId: string }
  | { type: 'message.user'; chatId: string; text: string }
  | { type: 'message.started'; chatId: string; messageId: number; round: number }
  | { type: 'text.delta'; chatId: string; messageId: number; delta: string }
  | { type: 'reasoning.delta'; chatId: string; messageId: number; delta: string }
  /** A round's tokens (null: not reported) and cost (null: no price, or counts unknown). */
  | {
      type: 'usage';
      chatId: string;
      messageId: number;
      round: number;
      model: string;
      usage: TokenUsage;
      costUsd: number | null;
    }
  | { type: 'message.finished'; chatId: string; messageId: number; status: 'complete' | 'cut' | 'cancelled' }
  | { type: 'tool.call'; chatId: string; callId: string; name: string; args: string }
  | CallEvent
  | { type: 'task.updated'; chatId: string; task: TaskView }
  | { type: 'todo.updated'; chatId: string; items: TodoItem[] }
  | { type: 'result.published'; chatId: string; result: ResultFile }
  | { type: 'notice'; chatId: string; level: 'info' | 'warn' | 'error'; message: string }
  | {
      type: 'turn.finished';
      chatId: string;
      turnId: string;
      status: TurnStatus;
      text: string;
      rounds: number;
      error?: string;
    };
