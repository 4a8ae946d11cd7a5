// html_template: renders an HTML report from a nunjucks template (inline or a workspace file) and JSON
// data into a workspace file. Autoescape is on, so data never turns into markup unless the template
// says `| safe`.
import fs from 'node:fs/promises';
import path from 'node:path';
import { renderTemplate, TemplateError } from './template-render';
import { defineTool, ToolError } from './types';
import { insideWorkspace, optionalString, requiredString } from './workspace-path';

/** html_template's limit (SPEC §4): 30 seconds. */
export const HTML_TEMPLATE_TIMEOUT_MS = 30_000;

/** The html_template built-in: gated (it writes a file), 30 s. */
export const htmlTemplateTool = defineTool({
  name: 'html_template',
  description:
    'Render an HTML report from a nunjucks template and JSON data into a workspace file, escaping the data.\n' +
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
          'Inline nunjucks template, e.g. "<h1>{{ title }}</h1>{% for r in rows %}<p>{{ r.name }}</p>{% endfor %}". ' +
          'Values are HTML-escaped; add | safe only for trusted markup. Give this or template_file.',
      },
      template_file: {
        type: 'string',
        default: '',
        description:
          'A template file relative to the workspace, e.g. "templates/report.njk"; it may include or extend other ' +
          'workspace templates. Give this or template.',
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
  handler: async (args, ctx) => {
    const workspace = path.resolve(ctx.workspace);
    const outputArg = requiredString(args.output, 'output', '"reports/sales.html"');
    const output = insideWorkspace(workspace, outputArg, 'output');
    const template = typeof args.template === 'string' ? args.template : '';
    const templateArg = optionalString(args.template_file, 'template_file');
    if ((template.trim() === '') === (templateArg === '')) {
      throw new ToolError('invalid_arguments', 'give exactly one of `template` and `template_file`', {
        parameter: 'template',
      });
    }
    const file = templateArg
      ? path.relative(workspace, insideWorkspace(workspace, templateArg, 'template_file'))
      : '';
    if (file && !(await isFile(path.join(workspace, file)))) {
      throw new ToolError(
        'invalid_arguments',
        `\`template_file\` is not a file: ${path.join(workspace, file)}`,
        {
          parameter: 'template_file',
        },
      );
    }
    const data = {
      ...(await readDataFile(workspace, optionalString(args.data_file, 'data_file'))),
      ...dataObject(args.data),
    };
    if ((await isFile(output)) && args.overwrite !== true) {
      throw new ToolError('exists', `${outputArg} already exists; pass overwrite=true to replace it`, {
        parameter: 'output',
      });
    }
    const html = await renderTemplate({ root: workspace, template, file, data }, ctx.signal).catch(
      (error: unknown) => {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        if (error instanceof TemplateError)
          throw new ToolError('template_error', `the template failed: ${error.message}`);
        throw error;
      },
    );
    await fs.mkdir(path.dirname(output), { recursive: true });
    // Write to a temp file and rename, so a browser never shows half a report.
    const temp = `${output}.${process.pid}.tmp`;
    await fs.writeFile(temp, html, { signal: ctx.signal });
    await fs.rename(temp, output);
    const bytes = Buffer.byteLength(html);
    return {
      content: [
        { type: 'text', text: `rendered ${outputArg} (${bytes.toLocaleString('en-US')} bytes): ${output}` },
      ],
      data: { path: output, bytes },
    };
  },
});

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
  const file = insideWorkspace(workspace, relative, 'data_file');
  let parsed: unknown;
  try {
    parsed = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : (error as Error).message;
    throw new ToolError('invalid_arguments', `\`data_file\` ${file}: ${reason}`, { parameter: 'data_file' });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ToolError('invalid_arguments', `\`data_file\` must hold a JSON object: ${file}`, {
      parameter: 'data_file',
    });
  }
  return parsed as Record<string, unknown>;
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );
}
