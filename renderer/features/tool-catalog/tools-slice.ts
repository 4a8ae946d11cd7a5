// The tools panel: every registered tool with its lint findings, and the MCP servers with reconnect.
import type { McpServerItem, ToolView } from '../../../preload/contract';
import type { SliceCreator } from '../../store/app-state';
import { invoke } from '../../boot/bridge';
import { t } from '../../i18n/i18n';

/** The tools panel's state. */
export interface ToolsSlice {
  tools: ToolView[];
  mcpServers: McpServerItem[];
  /** Problems with mcp.json itself. */
  mcpProblems: string[];
  /** Servers with a reconnect in flight. */
  reconnecting: string[];
  /** Servers whose changed tools main is asking the person about. */
  reviewing: string[];
  loadTools(): Promise<void>;
  loadMcp(): Promise<void>;
  mcpChanged(server: McpServerItem): void;
  reconnectMcp(name: string): Promise<void>;
  /** Asks main to show what changed in `name`'s trusted tools and trust them if the person agrees there. */
  reviewMcpChanges(name: string): Promise<void>;
}

/** Creates the tools slice. */
export const createToolsSlice: SliceCreator<ToolsSlice> = (set, get) => ({
  tools: [],
  mcpServers: [],
  mcpProblems: [],
  reconnecting: [],
  reviewing: [],
  async loadTools() {
    const result = await invoke('tools.list', {});
    if (result.ok) set({ tools: result.value });
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.listTools'), message: result.error.message }),
      );
  },
  async loadMcp() {
    const result = await invoke('mcp.list', {});
    if (result.ok) set({ mcpServers: result.value.servers, mcpProblems: result.value.problems });
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.listMcp'), message: result.error.message }),
      );
  },
  mcpChanged(server) {
    set((s) => {
      const index = s.mcpServers.findIndex((m) => m.name === server.name);
      if (index < 0) return { mcpServers: [...s.mcpServers, server] };
      const mcpServers = s.mcpServers.slice();
      mcpServers[index] = server;
      return { mcpServers };
    });
  },
  async reconnectMcp(name) {
    set((s) => ({ reconnecting: [...s.reconnecting, name] }));
    const result = await invoke('mcp.reconnect', { name });
    set((s) => ({ reconnecting: s.reconnecting.filter((n) => n !== name) }));
    if (result.ok) get().mcpChanged(result.value);
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.reconnect', { name }), message: result.error.message }),
      );
  },
  async reviewMcpChanges(name) {
    set((s) => ({ reviewing: [...s.reviewing, name] }));
    const result = await invoke('mcp.accept', { name });
    set((s) => ({ reviewing: s.reviewing.filter((n) => n !== name) }));
    if (result.ok) get().mcpChanged(result.value);
    // Keeping them asking is the person's answer, not a failure.
    else if (result.error.code !== 'declined')
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.acceptMcp', { name }), message: result.error.message }),
      );
  },
});
