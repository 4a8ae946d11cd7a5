// `agenvoy doctor`: what this machine gives the app, each check bounded in time — the OS sandbox, the keychain,
// Chromium for rendered downloads, whether the configured model provider answers, and the limits in force.
import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { readWebSettings } from '../settings/web-settings-file';
import { readLimits } from '../settings/limits';
import { listModels } from '../agent/providers/model-list';
import { loadSettings, providerChosen, providerWire } from '../settings/settings';
import { formatBytes } from '../core/argument-size';
import { agenvoyHome, agenvoyPaths } from '../core/paths';
import { sensitiveOptions } from '../gate/sensitive-paths';
import { NO_SANDBOX_CONSEQUENCE } from '../host/sandbox-status';
import { RuntimeSandbox } from '../sandbox/runtime-sandbox';
import { resolveWebSettings } from '../../tools/sdk/web/web-settings';
import type { CliIo } from './io';
import { cliSecretStore } from './secrets-command';
import { terminalText } from './terminal-text';

/** One line of the report. */
export interface DoctorCheck {
  name: 'sandbox' | 'keychain' | 'chromium' | 'provider' | 'limits';
  /** 'warn': the app works with less (no sandbox: every command asks; a file instead of the keychain). */
  level: 'ok' | 'warn' | 'fail';
  detail: string;
}

// A provider that does not answer in this time is reported as unreachable.
const PROVIDER_TIMEOUT_MS = 5000;

/** Runs `agenvoy doctor [--json]`; exit status 1 when a check failed, 0 otherwise (warnings included). */
export async function doctorCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const checks = await Promise.all([
    sandboxCheck(io),
    keychainCheck(io),
    chromiumCheck(io),
    providerCheck(io),
    limitsCheck(io),
  ]);
  if (values.json) io.stdout(JSON.stringify(checks, null, 2) + '\n');
  else
    io.stdout(
      checks
        // A detail may carry the model server's words: shown, never acted on by the terminal.
        .map((check) => `${check.level.padEnd(4)}  ${check.name.padEnd(8)}  ${terminalText(check.detail)}\n`)
        .join(''),
    );
  return checks.some((check) => check.level === 'fail') ? 1 : 0;
}

async function sandboxCheck(io: CliIo): Promise<DoctorCheck> {
  const paths = agenvoyPaths(agenvoyHome(io.env));
  const sandbox = new RuntimeSandbox({
    agenvoyHome: paths.home,
    homes: sensitiveOptions(paths.home, io.env).homes,
    web: () => readWebSettings(paths.settings),
  });
  try {
    const state = await sandbox.state();
    return state.kind === 'ready'
      ? { name: 'sandbox', level: 'ok', detail: `${state.backend}: commands and script tools run confined` }
      : { name: 'sandbox', level: 'warn', detail: `none (${state.reason}). ${NO_SANDBOX_CONSEQUENCE}` };
  } finally {
    await sandbox.close();
  }
}

// The bounds on what the model sends (settings.json `limits`); a value the file got wrong is a warning.
function limitsCheck(io: CliIo): DoctorCheck {
  const { limits, warnings } = readLimits(agenvoyPaths(agenvoyHome(io.env)).settings);
  const detail =
    `tool arguments ${formatBytes(limits.toolArgumentsBytes)} per call, provider events ` +
    `${formatBytes(limits.providerEventBytes)}, first byte within ${limits.providerFirstByteSeconds} s, ` +
    `idle at most ${limits.providerIdleSeconds} s`;
  return warnings.length === 0
    ? { name: 'limits', level: 'ok', detail }
    : { name: 'limits', level: 'warn', detail: `${detail}; ${warnings.join('; ')}` };
}

async function keychainCheck(io: CliIo): Promise<DoctorCheck> {
  const status = await cliSecretStore(io).status();
  const level = status.backend === 'keychain' ? 'ok' : status.backend === 'file' ? 'warn' : 'fail';
  return { name: 'keychain', level, detail: `${status.backend} (${status.reason})` };
}

async function chromiumCheck(io: CliIo): Promise<DoctorCheck> {
  const { chromiumPath } = resolveWebSettings(readWebSettings(agenvoyPaths(agenvoyHome(io.env)).settings));
  const usable = await fs.access(chromiumPath, fs.constants.X_OK).then(
    () => true,
    () => false,
  );
  return usable
    ? { name: 'chromium', level: 'ok', detail: `${chromiumPath} (download_file render=true can run)` }
    : {
        name: 'chromium',
        level: 'warn',
        detail: `none at ${chromiumPath}: download_file render=true cannot run (install chromium or set web.chromiumPath)`,
      };
}

async function providerCheck(io: CliIo): Promise<DoctorCheck> {
  const home = agenvoyHome(io.env);
  if (!providerChosen({ home, env: io.env })) {
    return {
      name: 'provider',
      level: 'warn',
      detail:
        'no provider chosen yet: run `agenvoy setup` (or open the app, which starts on its Welcome page)',
    };
  }
  let settings;
  try {
    settings = loadSettings({ home, env: io.env });
  } catch (error) {
    return {
      name: 'provider',
      level: 'fail',
      detail: error instanceof Error ? error.message : String(error),
    };
  }
  const where = `${settings.provider} at ${settings.baseUrl}`;
  const started = performance.now();
  // The same question as the Welcome page's "Test connection", with the stored key (docs/hosts.md, "First run").
  const apiKey =
    settings.apiKeyName === null ? null : ((await cliSecretStore(io).get(settings.apiKeyName)) ?? null);
  const listed = await listModels({
    wire: providerWire(settings.provider),
    baseUrl: settings.baseUrl,
    apiKey,
    keyName: settings.apiKeyName,
    timeoutMs: PROVIDER_TIMEOUT_MS,
  });
  const ms = Math.round(performance.now() - started);
  if (!listed.ok) {
    // A server that answers (with a refusal, or without a model list) is there: a warning; no answer fails.
    return {
      name: 'provider',
      level: listed.answered ? 'warn' : 'fail',
      detail: `${where} ${listed.answered ? 'answered' : 'did not answer'} in ${ms} ms: ${listed.error}`,
    };
  }
  const known = listed.models.includes(settings.model);
  return {
    name: 'provider',
    level: known ? 'ok' : 'warn',
    detail:
      `${where} lists ${listed.models.length} ${listed.models.length === 1 ? 'model' : 'models'} in ${ms} ms; ` +
      (known ? `model ${settings.model} is among them` : `model ${settings.model} is not among them`),
  };
}
