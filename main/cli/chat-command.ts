// `agenvoy chat "<prompt>"`: one headless turn, events as JSON lines with --json.
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ChatEvent, GateEventView, ToolSourceView } from '../../preload/contract';
import { openRuntime } from '../runtime';
import { chatEvent, gateEventView } from '../host/chat-events';
import { sourceView } from '../host/views';
import { sandboxUnavailableNote } from '../host/sandbox-status';
import { sensitiveOptions } from '../gate/sensitive-paths';
import { headlessOffer } from '../agent/host-offers';
import type { ProviderKind, SettingsLayer } from '../settings/settings';
import { loadSettings, PROVIDER_KINDS, providerChosen } from '../settings/settings';
import { agenvoyHome } from '../core/paths';
import type { ApprovalPolicy } from '../gate/confirm-gate';
import { TerminalSecretPrompt } from '../secrets/terminal-prompt';
import type { CliIo } from './io';
import { UsageError } from './io';
import { cliGate } from './terminal-approval';
import { terminalAskUser, unattendedAskUser } from './terminal-ask-user';
import { PlainChatPrinter } from './chat-printer';
import { readAttachedFiles } from './attach-files';
import type { CheckedAttachment } from '../agent/attachments';
import type { ChatReasoning } from '../core/model-usage';
import { CHAT_REASONING } from '../core/model-usage';
import { AttachmentError, attachmentParts, saveAttachments } from '../agent/attachments';
import { terminalText } from './terminal-text';

/** Runs one turn; exit 0 when it completed, 1 when it failed, 130 when it was stopped. */
export async function chatCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      chat: { type: 'string' },
      workspace: { type: 'string' },
      provider: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      approve: { type: 'string', default: 'ask' },
      json: { type: 'boolean' },
      attach: { type: 'string', multiple: true },
      reasoning: { type: 'string' },
    },
  });
  const prompt = positionals.join(' ').trim();
  // Files are read and checked before anything opens: a refused one ends the command with nothing saved or sent.
  const attached: CheckedAttachment[] = await readAttachedFiles(values.attach ?? [], io.cwd);
  if (!prompt && attached.length === 0)
    throw new UsageError('chat needs a prompt: agenvoy chat "<prompt>" [--attach FILE]...');
  const approve = values.approve as ApprovalPolicy;
  if (!['ask', 'allow', 'deny'].includes(approve))
    throw new UsageError('--approve must be ask, allow or deny');
  const reasoning = values.reasoning as ChatReasoning | undefined;
  if (reasoning !== undefined && !CHAT_REASONING.includes(reasoning))
    throw new UsageError(`--reasoning must be one of ${CHAT_REASONING.join(', ')}`);
  if (values.provider !== undefined && !(PROVIDER_KINDS as readonly string[]).includes(values.provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_KINDS.join(', ')}`);
  }
  const flags: SettingsLayer = {
    ...(values.provider ? { provider: values.provider as ProviderKind } : {}),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(values.model ? { model: values.model } : {}),
  };
  const home = agenvoyHome(io.env);
  // No provider chosen anywhere: the first run's job, not a guess at Anthropic (docs/hosts.md, "First run").
  if (!providerChosen({ home, env: io.env, flags })) {
    throw new UsageError(
      'no model provider is set up yet: run `agenvoy setup` (or give --provider, or set AGENVOY_PROVIDER)',
    );
  }
  const settings = loadSettings({ home, env: io.env, flags });
  const workspace = path.resolve(io.cwd, values.workspace ?? '.');
  const canAsk = io.interactive && approve === 'ask';
  const runtime = await openRuntime({
    home,
    workspace,
    prompts: () => ({
      gate: cliGate(io, approve, '--approve allow'),
      ...(io.interactive ? { secretPrompt: new TerminalSecretPrompt(io.stdin as never, io.stderr) } : {}),
      askUser: canAsk
        ? terminalAskUser(io.stdin, io.stderr)
        : unattendedAskUser('no one can answer here (no terminal, or --approve is not ask)'),
      onSandboxUnavailable: (reason: string) => io.stderr(sandboxUnavailableNote(reason)),
    }),
    chat: { settings: () => settings, offered: headlessOffer, background: false },
    homes: sensitiveOptions(home, io.env).homes,
  });
  const { core, chats } = runtime;
  // --json prints the events in the shapes of the UI contract (preload/contract), as the desktop host sends them.
  const sourceOf = (tool: string): ToolSourceView => {
    const found = core.registry.get(tool);
    return found ? sourceView(found.spec.source) : { kind: 'builtin' };
  };
  const plain = new PlainChatPrinter(io, (id) => chats.store.chats.get(id)?.title);
  const print = (event: ChatEvent | GateEventView) => {
    if (values.json) io.stdout(JSON.stringify(event) + '\n');
    else plain.print(event);
  };
  const offGate = runtime.gate.on((event) => print(gateEventView(event)));
  const offChat = chats.service.on((event) => print(chatEvent(event, sourceOf)));
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    // Scrubbed before it is cut, so no piece of a key survives the cut (docs/security.md, "Redaction").
    const title = core.redactor.redact(prompt || (attached[0]?.name ?? '')).slice(0, 60);
    const chatId = values.chat ?? chats.service.createChat({ workspace, title }).id;
    if (!chats.store.chats.get(chatId)) chats.service.createChat({ id: chatId, workspace, title });
    // The chat's own level from now on, as the app's Reasoning picker sets it.
    if (reasoning !== undefined) chats.store.chats.setReasoning(chatId, reasoning);
    plain.answerChat(chatId);
    // Copied into the chat's own workspace (an existing --chat keeps the one it has).
    const chatWorkspace = chats.store.chats.get(chatId)?.workspace ?? workspace;
    const saved = await saveAttachments(attached, chatWorkspace).catch((error: unknown) => {
      throw error instanceof AttachmentError ? new UsageError(error.message, 1) : error;
    });
    const result = await chats.service.send(chatId, prompt, controller.signal, attachmentParts(saved));
    if (!values.json) {
      plain.end();
      io.stderr(
        `[chat ${chatId}: ${result.status}${result.error ? `: ${terminalText(result.error)}` : ''}]\n`,
      );
    }
    return result.status === 'completed' ? 0 : result.status === 'cancelled' ? 130 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    offGate();
    offChat();
    await runtime.close();
  }
}
