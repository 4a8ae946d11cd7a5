// The script-tool authoring helpers `agenvoy mcp serve` offers external agents (docs/tools.md, "Serving tools over MCP"): create or patch a
// tool folder and lint it, test-run a tool through the dispatcher, list the tools and the folders that failed.
import path from 'node:path';
import type { JsonSchema, ToolResult, ToolSpec } from '../../tools/sdk/types';
import { defineTool, ToolError } from '../../tools/sdk/types';
import type { ScriptToolSource } from '../adapters/script/script-tool-source';
import { SCRIPT_PREFIX } from '../adapters/script/manifest-limits';
import type { ScriptLanguage } from '../adapters/script/types';
import type { Dispatcher } from '../core/dispatcher';
import { timeoutJson } from '../core/registry';
import type { ToolRegistry } from '../core/registry';
import { AUTHORING_PARAMETERS } from './authoring-schemas';
import type { ManifestFields, WrittenTool } from './script-files';
import { checkToolName, createToolFolder, patchToolFolder, scriptLanguageOf } from './script-files';

/** What the helpers reach in the core. */
export interface AuthoringPort {
  /** $AGENVOY_HOME/tools/script: where new tools are written. */
  globalScripts: string;
  workspace: string;
  scripts: Pick<ScriptToolSource, 'rescan' | 'tools' | 'problems'>;
  registry: Pick<ToolRegistry, 'get' | 'entry'>;
  dispatcher: Pick<Dispatcher, 'dispatch'>;
}

/** create_script_tool, patch_script_tool, test_script_tool and list_script_tools over the port `core()`. */
export function authoringTools(core: () => AuthoringPort): ToolSpec[] {
  let testRuns = 0;
  return [
    defineTool({
      name: 'create_script_tool',
      description:
        'Create a script tool: write tool.json and the script into the global script folder, then lint it.\n' +
        'Use when adding a new tool; use patch_script_tool to change one that exists.',
      parameters: AUTHORING_PARAMETERS.create,
      handler: async (args) => {
        const port = core();
        const manifest = manifestFields(args);
        const language = (args.language as ScriptLanguage | undefined) ?? 'js';
        const written = await createToolFolder(
          port.globalScripts,
          manifest,
          { source: String(args.script), language },
          args.overwrite === true,
        );
        return report(port, manifest.name, written);
      },
    }),
    defineTool({
      name: 'patch_script_tool',
      description:
        'Change a script tool: merge fields into its tool.json or replace its script, then lint it.\n' +
        'Use when fixing a tool or its lint findings; use create_script_tool for a new one.',
      parameters: AUTHORING_PARAMETERS.patch,
      handler: async (args) => {
        const port = core();
        const name = String(args.name);
        checkToolName(name);
        const dir = await locate(port, name);
        const changes = Object.fromEntries(
          ['description', 'parameters', 'always_allow', 'concurrent', 'timeout', 'secrets']
            .filter((key) => args[key] !== undefined && args[key] !== null)
            .map((key) => [key, args[key]]),
        ) as Partial<ManifestFields>;
        const hasScript = typeof args.script === 'string';
        if (!hasScript && args.language !== undefined && args.language !== null) {
          throw new ToolError(
            'invalid_arguments',
            'language changes only together with script: give the new script too',
          );
        }
        const language =
          (args.language as ScriptLanguage | null | undefined) ?? (await scriptLanguageOf(dir)) ?? 'js';
        const written = await patchToolFolder(
          dir,
          { ...changes, name },
          hasScript ? { source: args.script as string, language } : null,
        );
        return report(port, name, written);
      },
    }),
    defineTool({
      name: 'test_script_tool',
      description:
        'Run a script tool once with sample arguments and return its outcome, output or error.\n' +
        'Use when checking a tool after create_script_tool or patch_script_tool.',
      parameters: AUTHORING_PARAMETERS.test,
      handler: async (args, ctx) => {
        const port = core();
        await port.scripts.rescan();
        const name = String(args.name).replace(new RegExp(`^${SCRIPT_PREFIX}`), '');
        const outcome = await port.dispatcher.dispatch(
          {
            id: `test_${++testRuns}`,
            name: SCRIPT_PREFIX + name,
            args: (args.args as Record<string, unknown> | undefined) ?? {},
          },
          { chatId: ctx.chatId, workspace: port.workspace, signal: ctx.signal },
        );
        return json({ tool: SCRIPT_PREFIX + name, ...outcome });
      },
    }),
    defineTool({
      name: 'list_script_tools',
      description:
        'List the script tools with their folder, flags, timeout and lint findings, and the folders that failed to load.\n' +
        'Use when reviewing tools; use test_script_tool to run one.',
      parameters: AUTHORING_PARAMETERS.list,
      flags: { alwaysAllow: true, concurrent: true },
      handler: async () => {
        const port = core();
        await port.scripts.rescan();
        const tools = port.scripts.tools().map((tool) => {
          const registered = port.registry.get(tool.toolName);
          const broken = registered ? null : (port.registry.entry(tool.toolName)?.broken ?? null);
          return {
            tool: tool.toolName,
            dir: tool.dir,
            scope: tool.scope,
            description: tool.manifest.description,
            flags: registered?.spec.flags ?? null,
            timeoutMs: timeoutJson(tool.manifest.timeoutMs),
            lint: registered?.lint ?? [],
            warnings: tool.warnings,
            // Loaded but unusable: the per-tool step that failed and why (docs/robustness.md).
            broken,
          };
        });
        return json({ tools, problems: port.scripts.problems() });
      },
    }),
  ];
}

function manifestFields(args: Record<string, unknown>): ManifestFields {
  const fields: ManifestFields = {
    name: String(args.name),
    description: String(args.description),
    parameters: args.parameters as JsonSchema,
  };
  if (args.always_allow === true) fields.always_allow = true;
  if (args.concurrent === true) fields.concurrent = true;
  if (typeof args.timeout === 'number') fields.timeout = args.timeout;
  if (Array.isArray(args.secrets) && args.secrets.length > 0) fields.secrets = args.secrets as string[];
  return fields;
}

// The folder of a tool: a loaded one, a broken one, or one in the global folder by that name.
async function locate(port: AuthoringPort, name: string): Promise<string> {
  await port.scripts.rescan();
  const loaded = port.scripts.tools().find((tool) => tool.manifest.name === name);
  if (loaded) return loaded.dir;
  const broken = port.scripts
    .problems()
    .find((problem) => problem.file !== problem.dir && path.basename(problem.dir) === name);
  if (broken) return broken.dir;
  const dir = path.join(port.globalScripts, name);
  if ((await scriptLanguageOf(dir)) !== null) return dir;
  throw new ToolError(
    'not_found',
    `no script tool "${name}": list_script_tools shows them; create_script_tool makes a new one`,
  );
}

async function report(port: AuthoringPort, name: string, written: WrittenTool): Promise<ToolResult> {
  await port.scripts.rescan();
  const toolName = SCRIPT_PREFIX + name;
  const registered = port.registry.get(toolName);
  const loadedHere = registered?.spec.source.kind === 'script' && registered.spec.source.dir === written.dir;
  const problem = port.scripts.problems().find((p) => p.dir === written.dir);
  const entry = registered ? undefined : port.registry.entry(toolName);
  const broken =
    entry?.broken && entry.spec.source.kind === 'script' && entry.spec.source.dir === written.dir
      ? `broken (step ${entry.broken.step}): ${entry.broken.reason}`
      : null;
  return json({
    tool: toolName,
    loaded: loadedHere,
    dir: written.dir,
    files: written.files,
    problem:
      written.manifestProblem ??
      problem?.reason ??
      broken ??
      (registered && !loadedHere ? `overridden by ${describeOrigin(registered.spec.source)}` : null),
    lint: loadedHere ? registered.lint : written.lint,
    next: loadedHere
      ? `run it with test_script_tool {"name": "${name}", "args": {…}}`
      : 'fix the problem with patch_script_tool',
  });
}

function describeOrigin(source: { kind: string; dir?: string }): string {
  return source.dir ?? source.kind;
}

function json(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], data: value };
}
