// The app channels besides chat: info, tasks, tools, MCP servers, approval rules, settings and secrets.
import process from 'node:process';
import type { InvokeChannel } from '../../preload/contract';
import { isSecretKey } from '../secrets/key-name';
import { defaultWorkspace, readSettingsView, saveSettingsInput } from './desktop-settings';
import type { HandlerTable, HostContext } from './host-context';
import { HostError } from './host-error';
import { keyDestinations } from './key-destination';
import { providerHandlers } from './provider-handlers';
import { optionalString, requestObject, requiredString } from './request-fields';
import { sandboxStatusView } from './sandbox-status';
import { mcpHandlers } from './mcp-handlers';
import { trustHandlers } from './trust-handlers';
import { ruleItem, taskItem, toolViews } from './views';

type AdminChannel = Exclude<
  InvokeChannel,
  | 'chats.list'
  | 'chats.search'
  | 'chats.create'
  | 'chats.open'
  | 'chats.call'
  | 'chats.message'
  | 'chats.rename'
  | 'chats.delete'
  | 'chats.setWorkspace'
  | 'chats.setReasoning'
  | 'chats.setModel'
  | 'turn.send'
  | 'turn.cancel'
  | `updates.${string}`
>;

/** The non-chat handlers. */
export function adminHandlers(ctx: HostContext): HandlerTable<AdminChannel> {
  const { core, runtime, gate } = ctx;
  const definitionOf = (tool: string) => core.registry.get(tool)?.definitionHash;
  const destinations = keyDestinations(ctx.settings, ctx.dialogs.askUser());
  return {
    ...trustHandlers(ctx),
    ...mcpHandlers(ctx),
    ...providerHandlers(ctx, destinations),
    'app.info': () => ({
      mode: ctx.mode,
      version: ctx.version,
      platform: process.platform,
      home: ctx.settings.home,
      // '' when each new chat gets a folder of its own.
      defaultWorkspace: defaultWorkspace(ctx.settings) ?? '',
    }),
    'tasks.list': (request) => {
      const chatId = optionalString(requestObject(request), 'chatId', 200);
      return runtime.store.tasks.list(chatId ? { chatId } : {}).map((task) => taskItem(task, task.chatId));
    },
    'tasks.cancel': (request) => {
      const taskId = requiredString(requestObject(request), 'taskId', 200);
      if (!core.tasks.get(taskId) && !runtime.store.tasks.get(taskId)) {
        throw new HostError('not_found', `no task with id ${taskId}`);
      }
      return { cancelled: core.tasks.cancel(taskId) };
    },
    'sandbox.status': async () => sandboxStatusView(await core.dispatcher.sandboxState()),
    // Broken tools are listed too, each with its step and reason (views.ts).
    'tools.list': () => toolViews(core.registry),
    'rules.list': async () => {
      const set = await gate.rules.current();
      if (set.kind === 'damaged') return { rules: [], problem: set.problem };
      return { rules: (await gate.rules.list(definitionOf)).map(ruleItem), problem: null };
    },
    'rules.revoke': async (request) => {
      const id = requiredString(requestObject(request), 'id', 200);
      const result = await gate.rules.revoke(id);
      switch (result.kind) {
        case 'revoked':
          return ruleItem(result.rule);
        case 'not_found':
          throw new HostError('not_found', `no rule with id ${id}`);
      }
    },
    'settings.get': () => readSettingsView(ctx.settings),
    'settings.save': (request) =>
      saveSettingsInput(ctx.settings, request, (keyName, baseUrl) =>
        destinations.allow(keyName, baseUrl, ctx.signal),
      ),
    'secrets.list': async () => {
      const [keys, status] = await Promise.all([core.secrets.list(), core.secrets.status()]);
      return {
        keys: keys.map((entry) => ({ key: entry.key, locations: [...entry.locations] })),
        backend: status.backend,
        reason: status.reason,
        file: status.file,
        interopNote: status.interopNote,
      };
    },
    'secrets.prompt': async (request) => {
      const fields = requestObject(request);
      const key = requiredString(fields, 'key', 200).trim();
      if (!isSecretKey(key)) {
        throw new HostError(
          'invalid_request',
          `"${key}" is not a key name: use letters, digits and _ (e.g. OPENAI_API_KEY)`,
        );
      }
      const question = optionalString(fields, 'question', 2000)?.trim() || `Enter the value of ${key}.`;
      const answer = await ctx.secretAsk.ask({ key, question }, ctx.signal);
      if (answer === 'stored') ctx.emit('notice', { kind: 'secret_stored', key });
      return { stored: answer === 'stored' };
    },
  };
}
