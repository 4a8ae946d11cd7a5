// The chat history's public surface: open it with openChatStore, then use its tables.
export type { IntegrityResult, Recovery } from './chat-store';
export { ChatStore, chatStorePath, openChatStore } from './chat-store';
export type { ApprovalAsked, ApprovalRecord } from './approvals';
export type { ChatListOptions, ChatRecord, NewChat } from './chats';
export type { DurabilitySettings, OpenOptions, SyncMode } from './connection';
export type { MessageRef, MessageStatus, NoteMessage, StoredMessage } from './message-rows';
export type { FinishStatus, MessageListOptions } from './messages';
export type { Migration } from './migrations';
export { MIGRATIONS, SCHEMA_VERSION } from './migrations';
export { MAX_MODEL_ID } from './schema-chat-model';
export type { NewNote } from './notes';
export type { GroupOwner, StoredGroup } from './process-groups';
export type { SearchHit, SearchOptions } from './search';
export { CHECKPOINT_INTERVAL_MS, StreamCheckpointer } from './stream-checkpointer';
export type { TaskListOptions, TaskRecord } from './tasks';
export type { TodoItem } from './todos';
export type { QueuedCall, ToolCallRecord, ToolCallStatus } from './tool-calls';
export type { RoundUsageRecord } from './usage';
