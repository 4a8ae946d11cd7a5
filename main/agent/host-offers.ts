// Which tools each host offers the model (docs/hosts.md, "What each host offers").
import type { RegisteredTool } from '../core/registry';
import type { ToolFilter } from './tool-exposure';

const BACKGROUND_TOOLS = new Set(['background_command', 'background_subagents']);

/** The desktop app and browser mode offer everything. */
export const desktopOffer: ToolFilter = () => true;

/** `agenvoy chat` offers everything except the background tools: no one would watch them after the turn. */
export const headlessOffer: ToolFilter = (tool: RegisteredTool) => !BACKGROUND_TOOLS.has(tool.spec.name);

const NOT_IN_CHILD_CHATS = new Set([
  'subagents',
  'background_command',
  'background_subagents',
  'ask_user',
  'store_secret',
]);

/** A subagent's child chat offers everything except subagents, background tools, ask_user and store_secret. */
export const childOffer: ToolFilter = (tool: RegisteredTool) => !NOT_IN_CHILD_CHATS.has(tool.spec.name);
