// Composition root: builds the core services once and hands them to the hosts (Electron, browser mode, CLI).
import path from 'node:path';
import { builtinTools } from '../tools/builtin';
import { CoreSettings } from './settings/core-settings';
import type { ToolServices, ToolSpec } from '../tools/sdk/types';
import { BatchExecutor } from './core/batch-executor';
import { RegistryCatalog } from './search/catalog';
import { WordNetSynonyms, wordConceptKey } from './search/synonyms';
import { ToolIndex } from './search/tool-index';
import { WordConceptFile } from './search/word-concept-file';
import { SemanticSearch } from './search/semantic-search';
import type { EmbeddingPorts } from './app-embeddings';
import { configuredEmbeddingPorts } from './app-embeddings';
import { Dispatcher } from './core/dispatcher';
import type { ApprovalGate } from './core/gate-port';
import type { CredentialHealer } from './core/heal-budget';
import { lintTool } from './core/lint/lint-tool';
import { LoadedSchemas } from './core/loaded-schemas';
import { AppLogger } from './core/logger';
import type { AgenvoyPaths } from './core/paths';
import { agenvoyHome, agenvoyPaths, workspaceScripts } from './core/paths';
import { ProcessGroups } from './process/process-group';
import type { CommandSandbox } from './core/sandbox-port';
import { processPort } from './process/process-port';
import { Redactor } from './core/redactor';
import { ToolRegistry } from './core/registry';
import { TaskRegistry } from './core/task-registry';
import { ArgumentValidator, validatorId } from './core/validate';
import { SchemaCheckCache } from './core/schema-check-cache';
import { ScriptToolSource } from './adapters/script/script-tool-source';
import { TrustedDefinitions } from './adapters/mcp/trusted-definitions';
import { McpManager } from './adapters/mcp/mcp-manager';
import { PromptingHealer } from './secrets/prompting-healer';
import type { SecretPrompt } from './secrets/secret-prompt';
import { StoringSecretPrompt } from './secrets/secret-prompt';
import { SecretStore } from './secrets/secret-store';
import { TrustedFolders } from './core/trust/trusted-folders';
import { sensitiveOptions } from './gate/sensitive-paths';
import { RuntimeSandbox } from './sandbox/runtime-sandbox';
import { protectAppFolder } from '../tools/sdk/protected-write';

/** What a host passes in. */
export interface CoreOptions {
  /** $AGENVOY_HOME; defaults to the environment's. */
  home?: string;
  workspace: string;
  gate: ApprovalGate;
  /** Extra tools only this host offers (e.g. background tools in the desktop app). */
  hostTools?: ToolSpec[];
  /** Watch script folders for changes (off for one-shot CLI commands). */
  watchScripts?: boolean;
  healer?: CredentialHealer | null;
  /** Looks a secret up by key name; defaults to the secret store's get. */
  getSecret?: (key: string) => Promise<string | undefined>;
  /** The redactor every part scrubs with (openRuntime makes it first, so the host's dialogs can use it at once). */
  redactor?: Redactor;
  /** A prebuilt secret store (tests); its redactor becomes the core's, so what it reads is scrubbed everywhere. */
  secrets?: SecretStore;
  /** The host's masked prompt: enables store_secret and, unless `healer` is given, auto-heal. */
  secretPrompt?: SecretPrompt;
  /** Services only this host provides (e.g. the Electron app's offscreen page renderer). */
  hostServices?: Partial<ToolServices>;
  /** Echo log lines (e.g. to stderr for a verbose CLI). */
  echoLog?: (line: string) => void;
  /** The OS sandbox for commands and script tools; default the real one; null runs them unconfined (tests). */
  sandbox?: CommandSandbox | null;
  /** The user's home folders whose secret locations the sandbox hides (default: os.homedir() and $HOME). */
  homes?: string[];
  /** Told once when a call would run unconfined because no sandbox can start here. */
  onSandboxUnavailable?: (reason: string) => void;
  /**
   * The MCP servers of mcp.json: `wait` connects them before createCore returns (one-shot CLI commands),
   * `background` lets them connect while the host starts (desktop, browser mode), `off` skips them (mcp serve).
   */
  mcp?: 'wait' | 'background' | 'off';
  /**
   * find_tools' embedding model and vector cache (docs/search.md, "Embeddings (optional)"); default: what
   * settings.json configures, cached under desktop/cache/; null: lexical search only.
   */
  embeddings?: EmbeddingPorts | null;
}

/** The services every host binds. */
export interface Core {
  paths: AgenvoyPaths;
  workspace: string;
  registry: ToolRegistry;
  catalog: RegistryCatalog;
  schemas: LoadedSchemas;
  dispatcher: Dispatcher;
  executor: BatchExecutor;
  tasks: TaskRegistry;
  groups: ProcessGroups;
  /** The OS sandbox commands and script tools run in (null: none in this host). */
  sandbox: CommandSandbox | null;
  scripts: ScriptToolSource;
  /** The folders whose workspace tools the person trusts; rescan `scripts` after a change. */
  trust: TrustedFolders;
  redactor: Redactor;
  log: AppLogger;
  secrets: SecretStore;
  /** Answers credential failures with the masked prompt (null when the host cannot ask). */
  healer: CredentialHealer | null;
  /** The MCP servers of mcp.json, their states and reconnect. */
  mcp: McpManager;
  /** Stops watchers, cancels tasks and kills every process group this core started. */
  close(): Promise<void>;
}

/** Builds the core: registry with built-ins, script tools, catalogue, dispatcher, executor and tasks. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const paths = agenvoyPaths(options.home ?? agenvoyHome());
  const redactor = options.secrets?.redactor ?? options.redactor ?? new Redactor();
  const secrets = options.secrets ?? new SecretStore({ secretsFile: paths.secretsFile, redactor });
  const secretPrompt = options.secretPrompt
    ? new StoringSecretPrompt(options.secretPrompt, secrets)
    : undefined;
  const log = AppLogger.inDir(paths.logs, redactor, options.echoLog ?? null);
  const settings = new CoreSettings(paths.settings);
  // One validator: the registry compiles each script and MCP schema as it registers, the dispatcher reuses it.
  const validator = new ArgumentValidator();
  // Schemas that compiled before are not compiled again at start, only with their first call (docs/hosts.md).
  const schemaChecks = new SchemaCheckCache(
    path.join(paths.desktop, 'cache', 'schema-checks.json'),
    validatorId,
  );
  const registry = new ToolRegistry(lintTool, {
    checkSchema: (schema) => schemaChecks.check(schema, (checked) => validator.check(checked)),
  });
  for (const tool of [...builtinTools(), ...(options.hostTools ?? [])]) registry.register(tool);
  const schemas = new LoadedSchemas();
  // The dictionary look-ups of the index's words are kept too, for the first search of the next start.
  const wordConcepts = new WordConceptFile(
    path.join(paths.desktop, 'cache', 'word-concepts.json'),
    wordConceptKey,
  );
  const getSecret = options.getSecret ?? ((key: string) => secrets.get(key));
  const embeddings =
    options.embeddings === undefined ? configuredEmbeddingPorts(paths, getSecret) : options.embeddings;
  const semantic = embeddings
    ? new SemanticSearch(registry, {
        ...embeddings,
        warn: (message, fields) => log.warn(message, fields),
      })
    : null;
  const catalog = new RegistryCatalog(
    registry,
    schemas,
    new ToolIndex({ synonyms: new WordNetSynonyms({ store: wordConcepts }) }),
    semantic,
  );
  const groups = new ProcessGroups();
  // No file-writing tool writes in $AGENVOY_HOME, wherever it is (docs/security.md, "Files the tools write").
  const unprotectAppFolder = protectAppFolder(paths.home);
  const sandbox =
    options.sandbox === undefined
      ? new RuntimeSandbox({
          agenvoyHome: paths.home,
          homes: options.homes ?? sensitiveOptions(paths.home).homes,
          // Asked per outbound connection, outside any batch: the file as it is now (docs/hosts.md, "Fast start").
          web: () => settings.webNow(),
          log,
        })
      : options.sandbox;
  const tasks = new TaskRegistry(
    (task) => log.warn('abandoned task that ignored its signal', { task: task.id, name: task.tool }),
    (text) => redactor.redact(text),
  );
  const dispatcher = new Dispatcher({
    registry,
    validator,
    suggest: (name) => catalog.suggest(name),
    // Read per call like `web`, so an edit of settings.json applies at once.
    argumentLimitBytes: () => settings.argumentLimitBytes(),
    beforeCalls: () => settings.beforeCalls(),
    gate: options.gate,
    tasks,
    redactor,
    log,
    getSecret,
    timeoutScale: timeoutScaleFromEnv(process.env),
    sandbox,
    ...(options.onSandboxUnavailable ? { onSandboxUnavailable: options.onSandboxUnavailable } : {}),
    services: {
      catalog,
      tasks,
      processes: processPort(groups, sandbox),
      // Live command output is held back where it could still become a secret (docs/security.md).
      redaction: redactor,
      ...(secretPrompt ? { secretPrompt } : {}),
      ...options.hostServices,
      // Read on every call (the dispatcher spreads services per call), so a settings change applies at once.
      get web() {
        return settings.web();
      },
    },
  });
  const healer = options.healer ?? (secretPrompt ? new PromptingHealer(secretPrompt) : null);
  const executor = new BatchExecutor(dispatcher, healer);
  const trust = TrustedFolders.inDesktop(paths.desktop);
  const scripts = new ScriptToolSource({
    registry,
    dirs: [
      { dir: paths.globalScripts, scope: 'global' },
      { dir: workspaceScripts(options.workspace), scope: 'workspace', workspace: options.workspace },
    ],
    trust,
    agenvoyHome: paths.home,
    log,
    groups,
    sandbox,
    watch: options.watchScripts ?? false,
  });
  await scripts.start();
  schemaChecks.flush();

  // --- MCP servers (main/adapters/mcp): their tools go into the same registry, linted, never shadowing ---
  const mcp = new McpManager({
    configPath: paths.mcpConfig,
    registry,
    log,
    getSecret,
    redactor,
    groups,
    // Not the workspace: stdio servers start next to mcp.json (docs/security.md, "MCP servers start next to mcp.json").
    // Trusted tools are held to the definitions they were trusted with across runs (docs/security.md, "MCP trust").
    pins: TrustedDefinitions.inDesktop(paths.desktop),
  });
  const mcpMode = options.mcp ?? 'wait';
  if (mcpMode === 'wait') await mcp.start().finally(() => schemaChecks.flush());
  else if (mcpMode === 'background') void mcp.start().finally(() => schemaChecks.flush());
  // --- end MCP ---

  return {
    paths,
    workspace: options.workspace,
    registry,
    catalog,
    schemas,
    dispatcher,
    executor,
    tasks,
    groups,
    sandbox,
    scripts,
    trust,
    redactor,
    log,
    secrets,
    healer,
    mcp,
    async close() {
      schemaChecks.flush();
      await mcp.stop();
      scripts.stop();
      await catalog.close();
      await tasks.cancelAll();
      await groups.killAll();
      await sandbox?.close();
      unprotectAppFolder();
    },
  };
}

/** AGENVOY_TIMEOUT_SCALE: a factor on every tool limit, so tests can exercise a 30 min limit in a second. */
export function timeoutScaleFromEnv(env: NodeJS.ProcessEnv): number {
  const scale = Number(env.AGENVOY_TIMEOUT_SCALE);
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}
