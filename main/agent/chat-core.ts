// What the chat service needs of the core, as a narrow port: the agent layer depends on these parts of the tool host,
// not on how a host builds them (main/app.ts's Core satisfies it), so main/agent never imports a host or the app.
import type { BatchExecutor } from '../core/batch-executor';
import type { Dispatcher } from '../core/dispatcher';
import type { CredentialHealer } from '../core/heal-budget';
import type { LoadedSchemas } from '../core/loaded-schemas';
import type { AppLogger } from '../core/logger';
import type { AgenvoyPaths } from '../core/paths';
import type { ProcessGroups } from '../process/process-group';
import type { Redactor } from '../core/redactor';
import type { ToolRegistry } from '../core/registry';
import type { TaskRegistry } from '../core/task-registry';
import type { ToolCatalogPort } from '../../tools/sdk/types';

/** The core services a chat runs on. */
export interface ChatCore {
  paths: Pick<AgenvoyPaths, 'settings' | 'desktop'>;
  /** The default workspace of new chats. */
  workspace: string;
  registry: ToolRegistry;
  /** The find_tools catalogue over the registry; each chat sees it narrowed to the tools its host offers. */
  catalog: ToolCatalogPort;
  schemas: LoadedSchemas;
  dispatcher: Dispatcher;
  executor: BatchExecutor;
  tasks: TaskRegistry;
  groups: ProcessGroups;
  redactor: Redactor;
  log: AppLogger;
  /** Answers credential failures with the masked prompt (null when the host cannot ask). */
  healer: CredentialHealer | null;
  /** Reads a stored secret by key (the provider's API key). */
  secrets: { get(key: string): Promise<string | undefined> };
}
