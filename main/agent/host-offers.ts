// Which tools each host offers the model (SPEC §1).
import type { RegisteredTool } from '../core/registry';
import type { ToolFilter } from './tool-exposure';

const BACKGROUND_TOOLS = new Set(['background_command', 'background_subagents']);

/** The desktop app and browser mode offer everything. */
export const desktopOffer: ToolFilter = () => true;

/** `agenvoy chat` offers everything except the background tools: no one would watch them after the turn. */
export const headlessOffer: ToolFilter = (tool: RegisteredTool) => !BACKGROUND_TOOLS.has(tool.spec.name);
