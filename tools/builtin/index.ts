// Every built-in tool definition, in one list the composition root registers.
import { askUserTool } from './ask-user';
import { backgroundCommandTool } from './background-command';
import { backgroundSubagentsTool } from './background-subagents';
import { cancelTaskTool } from './cancel-task';
import { chatHistoryTool } from './chat-history';
import { checkTaskTool } from './check-task';
import { downloadFileTool } from './download-file';
import { fetchPageTool } from './fetch-page';
import { findToolsTool } from './find-tools';
import { generateAudioTool } from './generate-audio';
import { generateImageTool } from './generate-image';
import { htmlTemplateTool } from './html-template';
import { httpRequestTool } from './http-request';
import { openFileTool } from './open-file';
import { reasoningGuideTool } from './reasoning-guide';
import { runCommandTool } from './run-command';
import { runToolTool } from './run-tool';
import { searchWebTool } from './search-web';
import { storeSecretTool } from './store-secret';
import { subagentsTool } from './subagents';
import type { ToolSpec } from '../sdk/types';
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
    runCommandTool,
    backgroundCommandTool,
    checkTaskTool,
    cancelTaskTool,
    subagentsTool,
    backgroundSubagentsTool,
    openFileTool,
    htmlTemplateTool,
    httpRequestTool,
    downloadFileTool,
    fetchPageTool,
    searchWebTool,
    generateImageTool,
    generateAudioTool,
  ];
}
