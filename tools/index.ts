// Every built-in tool definition, in one list the composition root registers.
import { askUserTool } from './ask-user';
import { chatHistoryTool } from './chat-history';
import { findToolsTool } from './find-tools';
import { reasoningGuideTool } from './reasoning-guide';
import { runToolTool } from './run-tool';
import { storeSecretTool } from './store-secret';
import type { ToolSpec } from './types';
import { writeResultTool } from './write-result';
import { writeTodoTool } from './write-todo';

/** The built-in tools offered by every host (host-specific ones are added by the host). */
export function builtinTools(): ToolSpec[] {
  return [
    findToolsTool,
    runToolTool,
    reasoningGuideTool,
    askUserTool,
    writeTodoTool,
    chatHistoryTool,
    writeResultTool,
    storeSecretTool,
  ];
}
