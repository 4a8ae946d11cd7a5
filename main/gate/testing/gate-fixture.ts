// A real dispatcher stack with a ConfirmGate over a temp $AGENVOY_HOME, and recording test tools.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backgroundCommandTool } from '../../../tools/builtin/background-command';
import { runCommandTool } from '../../../tools/builtin/run-command';
import type { ToolServices, ToolSpec } from '../../../tools/sdk/types';
import { defineTool } from '../../../tools/sdk/types';
import { ProcessGroups } from '../../process/process-group-tracker';
import { processPort } from '../../process/process-port';
import type { CommandSandbox } from '../../core/sandbox-port';
import { testCore } from '../../core/testing/test-core';
import type { ApprovalPolicy } from '../confirm-gate';
import { ConfirmGate } from '../confirm-gate';
import type { GateEvent } from '../gate-events';
import type { ApprovalPrompter } from '../prompter-port';
import { RuleBook } from '../rule-book';
import { RuleStore } from '../rule-store';

/** A tool that records each run instead of doing anything. */
export function recordingTool(
  name: string,
  runs: string[],
  parameters: Record<string, unknown> = { command: { type: 'string', description: 'x' } },
): ToolSpec {
  return defineTool({
    name,
    description: `${name} for tests.\nUse when testing the gate.`,
    parameters: { type: 'object', properties: parameters, additionalProperties: true },
    handler: (args) => {
      runs.push(`${name} ${JSON.stringify(args)}`);
      return `ran ${name}`;
    },
  });
}

/** What a gate fixture is built with. */
export interface GateFixtureOptions {
  prompter?: ApprovalPrompter | null;
  policy?: ApprovalPolicy;
  timeoutMs?: number | null;
  /** Reuse the home of an earlier fixture (a second process over the same rules). */
  home?: string;
  extraTools?: ToolSpec[];
  /**
   * How command calls would run. 'sandboxed' puts the default rules in play: the dispatcher is told a sandbox is
   * ready (the real one lives in main/sandbox; this one confines nothing, so real commands run unconfined here).
   */
  sandbox?: 'sandboxed' | 'none';
  /** The real run_command and background_command over a real process port, instead of recording stand-ins. */
  realCommands?: boolean;
  /** The user's home folders the sensitive-target check knows (default /home/ann). */
  homes?: string[];
  /** More services for the tools (e.g. the web settings of the web tools). */
  services?: ToolServices;
  /** The secret lookup tools get (none found by default). */
  getSecret?: (key: string) => Promise<string | undefined>;
}

/** A sandbox port that only reports itself ready: the dispatcher then marks command calls 'sandboxed'. */
export const REPORTED_SANDBOX: CommandSandbox = {
  state: () => Promise.resolve({ kind: 'ready', backend: 'bubblewrap' }),
  wrap: () => Promise.reject(new Error('the gate fixture reports a sandbox but confines nothing')),
  close: () => Promise.resolve(),
};

/** A dispatcher stack whose gate is a ConfirmGate; `runs` lists the tool runs, `events` the gate events. */
export function gateFixture(options: GateFixtureOptions = {}) {
  const home = options.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-gate-'));
  const runs: string[] = [];
  const events: GateEvent[] = [];
  const gate = new ConfirmGate({
    rules: new RuleBook(RuleStore.inDesktop(path.join(home, 'desktop'))),
    sensitive: { homes: options.homes ?? ['/home/ann'], agenvoyHome: home },
    policy: options.policy ?? 'ask',
    prompter: options.prompter ?? null,
    timeoutMs: options.timeoutMs ?? null,
  });
  gate.on((event) => events.push(event));
  const sandboxed = options.sandbox === 'sandboxed';
  const commands = options.realCommands
    ? [runCommandTool, backgroundCommandTool]
    : [{ ...recordingTool('run_command', runs), ...(sandboxed ? { sandboxed: () => true } : {}) }];
  const tools = [
    ...commands,
    recordingTool('write_note', runs, {
      path: { type: 'string', description: 'x' },
      content: { type: 'string', description: 'x' },
    }),
    ...(options.extraTools ?? []),
  ];
  const core = testCore(tools, {
    gate,
    sandbox: sandboxed ? REPORTED_SANDBOX : null,
    // Unconfined: the process port gets no sandbox, whatever the dispatcher was told.
    services: {
      ...options.services,
      ...(options.realCommands ? { processes: processPort(new ProcessGroups()) } : {}),
    },
    ...(options.getSecret ? { getSecret: options.getSecret } : {}),
  });
  return { home, runs, events, gate, ...core };
}
