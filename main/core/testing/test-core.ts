// Builds a real dispatcher stack for tests and benches (real registry, validator, tasks; a temp log dir).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolServices, ToolSpec } from '../../../tools/sdk/types';
import { BatchExecutor } from '../batch-executor';
import { Dispatcher } from '../dispatcher';
import type { ApprovalGate } from '../gate-port';
import { policyGate } from '../gate-port';
import type { CredentialHealer } from '../heal-budget';
import { LoadedSchemas } from '../loaded-schemas';
import { AppLogger } from '../logger';
import { Redactor } from '../redactor';
import type { CommandSandbox } from '../sandbox-port';
import { ToolRegistry } from '../registry';
import { TaskRegistry } from '../task-registry';
import { ArgumentValidator } from '../validate';

/** A dispatcher stack over `tools` with a temp log file. */
export function testCore(
  tools: ToolSpec[],
  options: {
    gate?: ApprovalGate;
    healer?: CredentialHealer;
    /** The sandbox the dispatcher reports for command calls (how they would run); none by default. */
    sandbox?: CommandSandbox | null;
    /** More services for the tools (e.g. a process port for the real command tools). */
    services?: ToolServices;
    /** The secret lookup tools get (none found by default). */
    getSecret?: (key: string) => Promise<string | undefined>;
  } = {},
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-core-'));
  const redactor = new Redactor();
  const log = AppLogger.inDir(dir, redactor);
  const registry = new ToolRegistry(() => []);
  for (const tool of tools) registry.register(tool);
  const tasks = new TaskRegistry();
  const schemas = new LoadedSchemas();
  const dispatcher = new Dispatcher({
    registry,
    validator: new ArgumentValidator(),
    gate: options.gate ?? policyGate('allow'),
    tasks,
    redactor,
    log,
    getSecret: options.getSecret ?? (async () => undefined),
    services: { redaction: redactor, ...options.services, tasks },
    sandbox: options.sandbox ?? null,
  });
  const executor = new BatchExecutor(dispatcher, options.healer ?? null);
  const readLog = () =>
    fs.existsSync(path.join(dir, 'app.log')) ? fs.readFileSync(path.join(dir, 'app.log'), 'utf8') : '';
  return { dir, registry, tasks, schemas, dispatcher, executor, redactor, log, readLog };
}
