// Builds what a desktop host (Electron or browser mode) runs: the gate with the dialog prompter, the core with the
// masked secret dialog, the chat runtime with ask_user, the app service, and every event wired to it.
import path from 'node:path';
import type { ToolSourceView } from '../../preload/contract';
import type { Core } from '../app';
import { openRuntime } from '../runtime';
import type { ToolServices } from '../../tools/sdk/types';
import type { ChatRuntime } from '../agent/chat-runtime';
import { desktopOffer } from '../agent/host-offers';
import type { CreateProviderOptions } from '../agent/providers/create-provider';
import { loadSettings } from '../settings/settings';
import { Emitter } from '../core/emitter';
import { agenvoyHome } from '../core/paths';
import { approvalTimeoutFromEnv, createConfirmGate } from '../gate/create-gate';
import { StoringSecretPrompt } from '../secrets/secret-prompt';
import type { SecretStore } from '../secrets/secret-store';
import type { HostEvent } from './app-service';
import { AppService } from './app-service';
import { appVersion } from './app-version';
import { chatEvent, gateEventView } from './chat-events';
import type { SettingsPlace } from './desktop-settings';
import { coreWorkspace } from './desktop-settings';
import { DialogHub } from './dialog-hub';
import { sandboxUnavailableNote } from './sandbox-status';
import type { HostContext } from './host-context';
import type { UpdatePort } from './update-handlers';
import { staticUpdatePort } from './update-handlers';
import { mcpItem, sourceView } from './views';

/** What a host chooses. */
export interface AppHostOptions {
  mode: 'electron' | 'web';
  /**
   * The default workspace when settings.json names none (`agenvoy web --workspace`); left out, each new chat gets a
   * folder of its own under ~/Agenvoy (docs/security.md).
   */
  workspace?: string;
  /** $AGENVOY_HOME; defaults to the environment's. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  version?: string;
  /** MCP servers connect in the background by default. */
  mcp?: 'wait' | 'background' | 'off';
  watchScripts?: boolean;
  providerOptions?: CreateProviderOptions;
  /** Services only this host provides (the Electron app's offscreen page renderer). */
  hostServices?: Partial<ToolServices>;
  /** A prebuilt secret store (tests). */
  secrets?: SecretStore;
  /** How this host updates itself (the desktop app's updater); left out, updates are not offered here. */
  updates?: UpdatePort;
}

/** A running host: its service, its dialogs, and the core underneath. */
export interface AppHost {
  service: AppService;
  dialogs: DialogHub;
  core: Core;
  runtime: ChatRuntime;
  /** Background tasks still running (quitting asks first when there are any). */
  runningTasks(): number;
  /** Stops turns, tasks, MCP servers and every child process, then closes the store. */
  close(): Promise<void>;
}

// Registry changes come in bursts (a script folder, an MCP server's tool list): one event per burst.
const TOOLS_CHANGED_DELAY_MS = 150;

/** Opens the host's core, runtime and service. */
export async function openAppHost(options: AppHostOptions): Promise<AppHost> {
  const env = options.env ?? process.env;
  const home = path.resolve(options.home ?? agenvoyHome(env));
  const place: SettingsPlace = {
    home,
    env,
    fallbackWorkspace: options.workspace === undefined ? null : path.resolve(options.workspace),
  };
  const events = new Emitter<HostEvent>();
  const runtime = await openRuntime({
    home,
    workspace: await coreWorkspace(place),
    // Made with the redactor and chat titles openRuntime makes first: every event payload is scrubbed with it.
    prompts: ({ redactor, chatTitle }) => {
      const emit: HostContext['emit'] = (channel, payload) =>
        events.emit({ channel, payload: redactor.redactDeep(payload) } as HostEvent);
      const dialogs = new DialogHub({
        redact: (text) => redactor.redact(text),
        chatTitle,
        notice: (notice) => emit('notice', notice),
      });
      return {
        emit,
        dialogs,
        gate: createConfirmGate({
          home,
          env,
          policy: 'ask',
          prompter: dialogs.approvalPrompter(),
          // docs/security.md ("Decisions and rules"): off by default in the desktop app; AGENVOY_APPROVAL_TIMEOUT
          // turns it on.
          timeoutMs: approvalTimeoutFromEnv(env, null),
        }),
        secretPrompt: dialogs.secretPrompt(),
        askUser: dialogs.askUser(),
        onSandboxUnavailable: (reason: string) =>
          emit('notice', { kind: 'message', level: 'warn', message: sandboxUnavailableNote(reason).trim() }),
      };
    },
    chat: {
      settings: () => loadSettings({ home, env }),
      offered: desktopOffer,
      background: true,
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    },
    watchScripts: options.watchScripts ?? true,
    mcp: options.mcp ?? 'background',
    ...(options.hostServices ? { hostServices: options.hostServices } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  const { core, chats, gate } = runtime;
  const { dialogs: hub, emit } = runtime.host;
  const closing = new AbortController();
  const ctx: HostContext = {
    core,
    runtime: chats,
    gate,
    dialogs: hub,
    secretAsk: new StoringSecretPrompt(hub.secretPrompt(), core.secrets),
    settings: place,
    mode: options.mode,
    version: options.version ?? appVersion(),
    signal: closing.signal,
    emit,
    updates:
      options.updates ??
      staticUpdatePort(
        home,
        options.version ?? appVersion(),
        'browser mode: update with npm (docs/hosts.md)',
      ),
  };
  const service = new AppService(ctx, events);
  const unsubscribe = wireEvents(ctx);
  const offUpdates = ctx.updates.onChange((view) => emit('updates.changed', view));

  return {
    service,
    dialogs: hub,
    core,
    runtime: chats,
    runningTasks: () => core.tasks.running,
    async close() {
      if (closing.signal.aborted) return;
      closing.abort(new Error('the app is quitting'));
      unsubscribe();
      offUpdates();
      await runtime.close();
    },
  };
}

function wireEvents(ctx: HostContext): () => void {
  const { core, runtime, gate } = ctx;
  const sourceOf = (tool: string): ToolSourceView => {
    const found = core.registry.get(tool);
    return found ? sourceView(found.spec.source) : { kind: 'builtin' };
  };
  let toolsTimer: NodeJS.Timeout | null = null;
  const offs = [
    runtime.service.on((event) => {
      const view = chatEvent(event, sourceOf);
      ctx.emit('chat.event', view);
      if (view.type === 'task.updated') ctx.emit('task.changed', view.task);
    }),
    gate.on((event) => ctx.emit('gate.event', gateEventView(event))),
    core.registry.onChange(() => {
      toolsTimer ??= setTimeout(() => {
        toolsTimer = null;
        ctx.emit('tools.changed', { count: core.registry.size });
      }, TOOLS_CHANGED_DELAY_MS);
    }),
    core.mcp.onChange((view) => ctx.emit('mcp.changed', mcpItem(view))),
    gate.rules.onChange((change) =>
      ctx.emit('rules.changed', { ruleId: change.type === 'bound' ? change.id : change.rule.id }),
    ),
  ];
  return () => {
    if (toolsTimer) clearTimeout(toolsTimer);
    offs.forEach((off) => off());
  };
}
