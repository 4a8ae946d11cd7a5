// `agenvoy chat "<prompt>"`: one headless turn, events as JSON lines with --json.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCore } from '../app';
import { sandboxUnavailableNote } from '../host/sandbox-status';
import { sensitiveOptions } from '../gate/create-gate';
import { openChatRuntime } from '../agent/chat-runtime';
import { headlessOffer } from '../agent/host-offers';
import type { ProviderKind, SettingsLayer } from '../agent/settings';
import { loadSettings } from '../agent/settings';
import type { TurnEvent } from '../agent/turn-events';
import { agenvoyHome } from '../core/paths';
import type { ApprovalPolicy } from '../gate/confirm-gate';
import type { GateEvent } from '../gate/gate-events';
import { TerminalSecretPrompt } from '../secrets/terminal-prompt';
import type { CliIo } from './io';
import { UsageError } from './io';
import { cliGate } from './terminal-approval';
import { terminalAskUser, unattendedAskUser } from './terminal-ask-user';

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
    },
  });
  const prompt = positionals.join(' ').trim();
  if (!prompt) throw new UsageError('chat needs a prompt: agenvoy chat "<prompt>"');
  const approve = values.approve as ApprovalPolicy;
  if (!['ask', 'allow', 'deny'].includes(approve))
    throw new UsageError('--approve must be ask, allow or deny');
  if (values.provider !== undefined && values.provider !== 'anthropic' && values.provider !== 'openai') {
    throw new UsageError('--provider must be anthropic or openai');
  }
  const flags: SettingsLayer = {
    ...(values.provider ? { provider: values.provider as ProviderKind } : {}),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(values.model ? { model: values.model } : {}),
  };
  const home = agenvoyHome(io.env);
  const settings = loadSettings({ home, env: io.env, flags });
  const workspace = path.resolve(io.cwd, values.workspace ?? '.');
  const canAsk = io.interactive && approve === 'ask';
  const write = (event: TurnEvent | GateEvent) => printEvent(event, Boolean(values.json), io);
  const gate = cliGate(io, approve, '--approve allow');
  const core = await createCore({
    home,
    workspace,
    gate,
    secretPrompt: io.interactive ? new TerminalSecretPrompt(io.stdin as never, io.stderr) : undefined,
    homes: sensitiveOptions(agenvoyHome(io.env), io.env).homes,
    onSandboxUnavailable: (reason) => io.stderr(sandboxUnavailableNote(reason)),
  });
  const runtime = await openChatRuntime(core, {
    settings: () => settings,
    offered: headlessOffer,
    background: false,
    gate,
    askUser: canAsk
      ? terminalAskUser(io.stdin, io.stderr)
      : unattendedAskUser('no one can answer here (no terminal, or --approve is not ask)'),
  });
  const offGate = gate.on(write);
  const offChat = runtime.service.on(write);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const chatId = values.chat ?? runtime.service.createChat({ workspace, title: prompt.slice(0, 60) }).id;
    if (!runtime.store.chats.get(chatId))
      runtime.service.createChat({ id: chatId, workspace, title: prompt.slice(0, 60) });
    const result = await runtime.service.send(chatId, prompt, controller.signal);
    if (!values.json) {
      io.stdout(result.text && !result.text.endsWith('\n') ? '\n' : '');
      io.stderr(`[chat ${chatId}: ${result.status}${result.error ? `: ${result.error}` : ''}]\n`);
    }
    return result.status === 'completed' ? 0 : result.status === 'cancelled' ? 130 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    offGate();
    offChat();
    runtime.close();
    await core.close();
  }
}

function printEvent(event: TurnEvent | GateEvent, json: boolean, io: CliIo): void {
  if (json) {
    io.stdout(JSON.stringify(event) + '\n');
    return;
  }
  switch (event.type) {
    case 'text.delta':
      io.stdout(event.delta);
      break;
    case 'call.started':
      io.stderr(
        `\n[tool ${event.tool} started${event.limitMs ? `, limit ${event.limitMs / 1000} s` : ''}]\n`,
      );
      break;
    case 'call.finished':
      io.stderr(
        `[tool ${event.tool}: ${event.outcome.outcome}${event.outcome.outcome === 'ok' ? '' : ` — ${event.outcome.message}`}]\n`,
      );
      break;
    case 'notice':
      io.stderr(`[${event.level}] ${event.message}\n`);
      break;
    default:
      break;
  }
}
