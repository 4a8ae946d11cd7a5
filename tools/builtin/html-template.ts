// html_template: renders an HTML report from a LiquidJS template (inline or a workspace file) and JSON data into
// a workspace file. Every value is HTML-escaped unless the template ends it with `| raw`. The template and the
// templates it includes are pinned before approval (template-pin.ts), rendered in a bounded worker
// (template-render.ts) and written by the safe writer (docs/security.md, "html_template").
import { checkWritable, safeWriteFile } from '../sdk/safe-write';
import { readWorkspaceText } from '../sdk/safe-read';
import type { PinnedTemplate } from './template-pin';
import { pinTemplate } from './template-pin';
import { renderTemplate, TemplateError } from './template-render';
import type { ToolContext } from '../sdk/types';
import { defineTool, ToolError } from '../sdk/types';
import { optionalString, requiredString } from '../sdk/workspace-path';
import { workspacePath } from '../sdk/workspace-real';

/** html_template's limit (docs/dispatch.md, "Limits of the built-in tools"): 30 seconds. */
export const HTML_TEMPLATE_TIMEOUT_MS = 30_000;

/** Largest `data_file`, in bytes. */
export const MAX_DATA_FILE_BYTES = 20 * 1024 * 1024;

// The render gets what is left of the call's limit, less time to write the file, so it ends with its own
// clear error before the limit cuts it.
const WRITE_RESERVE_MS = 1500;
const RENDER_MAX_MS = 28_000;
const RENDER_MIN_MS = 1000;

/** The html_template built-in: gated (it writes a file), 30 s. */
export const htmlTemplateTool = defineTool({
  name: 'html_template',
  description:
    'Render an HTML report from a Liquid template and JSON data into a workspace file, escaping the data.\n' +
    'Use for tables, dashboards and styled reports from data; write_result for text or markdown.',
  parameters: {
    type: 'object',
    properties: {
      output: {
        type: 'string',
        minLength: 1,
        description:
          'Where to write the HTML, relative to the workspace, e.g. "reports/sales.html". It must stay inside.',
      },
      template: {
        type: 'string',
        default: '',
        description:
          'Inline Liquid template, e.g. "<h1>{{ title }}</h1>{% for r in rows %}<p>{{ r.name }}</p>{% endfor %}". ' +
          'Values are HTML-escaped; end with | raw only for trusted markup. Give this or template_file.',
      },
      template_file: {
        type: 'string',
        default: '',
        description:
          'A Liquid template file relative to the workspace, e.g. "templates/report.liquid"; it may include ' +
          "workspace templates named in quotes, e.g. {% render 'parts/row.liquid' %}. Give this or template.",
      },
      data: {
        type: 'object',
        default: {},
        description:
          'The values the template reads, as a JSON object, e.g. {"title": "Sales", "rows": [{"name": "A"}]}.',
      },
      data_file: {
        type: 'string',
        default: '',
        description:
          'A JSON file in the workspace holding an object of values, e.g. "out/sales.json"; its keys are merged under data.',
      },
      overwrite: { type: 'boolean', default: false, description: 'Replace the output file when it exists.' },
    },
    required: ['output'],
    additionalProperties: false,
  },
  timeoutMs: HTML_TEMPLATE_TIMEOUT_MS,
  // Run by the dispatcher before the confirm gate: the approval shows the template text (and every template it
  // includes, under `template_includes`), and exactly that is rendered.
  pinArguments: async (args, { workspace }) => {
    const pinned = await pinTemplate(workspace, args);
    return { ...args, template: pinned.template, template_includes: pinned.files };
  },
  handler: async (args, ctx) => {
    const outputArg = requiredString(args.output, 'output', '"reports/sales.html"');
    const target = {
      workspace: ctx.workspace,
      path: outputArg,
      parameter: 'output',
      overwrite: args.overwrite === true,
    };
    await checkWritable(target);
    const template = await pinnedTemplate(args, ctx.workspace);
    const data = {
      ...(await readDataFile(ctx.workspace, optionalString(args.data_file, 'data_file'))),
      ...dataObject(args.data),
    };
    const html = await renderTemplate(
      { ...template, data, timeLimitMs: renderBudget(ctx.deadline) },
      ctx.signal,
    ).catch((error: unknown) => {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (error instanceof TemplateError)
        throw new ToolError('template_error', `the template failed: ${error.message}`);
      throw error;
    });
    const written = await safeWriteFile(target, html, ctx.signal);
    return {
      content: [
        {
          type: 'text',
          text: `rendered ${outputArg} (${written.bytes.toLocaleString('en-US')} bytes): ${written.path}`,
        },
      ],
      data: { path: written.path, bytes: written.bytes },
    };
  },
});

// The pinned template of an approved call; a call that never went through the dispatcher's pinning (a direct
// handler call) is pinned here. The model cannot pass template_includes itself: the schema has no such key.
async function pinnedTemplate(args: Record<string, unknown>, workspace: string): Promise<PinnedTemplate> {
  const files = args.template_includes;
  if (files === null || typeof files !== 'object' || Array.isArray(files))
    return pinTemplate(workspace, args);
  const fileArg = optionalString(args.template_file, 'template_file');
  const name = fileArg ? (await workspacePath(workspace, fileArg, 'template_file')).parts.join('/') : '';
  const template = typeof args.template === 'string' ? args.template : '';
  return { template, name, files: files as Record<string, string> };
}

function renderBudget(deadline: ToolContext['deadline']): number {
  if (deadline === null) return RENDER_MAX_MS;
  return Math.min(RENDER_MAX_MS, Math.max(RENDER_MIN_MS, deadline - Date.now() - WRITE_RESERVE_MS));
}

function dataObject(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ToolError('invalid_arguments', '`data` must be a JSON object, e.g. {"title": "Sales"}', {
      parameter: 'data',
    });
  }
  return value as Record<string, unknown>;
}

async function readDataFile(workspace: string, relative: string): Promise<Record<string, unknown>> {
  if (relative === '') return {};
  const file = await readWorkspaceText(workspace, relative, 'data_file', MAX_DATA_FILE_BYTES);
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.text);
  } catch (error) {
    throw new ToolError('invalid_arguments', `\`data_file\` ${file.relative}: ${(error as Error).message}`, {
      parameter: 'data_file',
    });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ToolError('invalid_arguments', `\`data_file\` must hold a JSON object: ${file.relative}`, {
      parameter: 'data_file',
    });
  }
  return parsed as Record<string, unknown>;
}
