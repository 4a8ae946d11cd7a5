// write_result: saves the turn's deliverable into the workspace and shows it in the app.
import fs from 'node:fs/promises';
import path from 'node:path';
import { defineTool, ToolError } from './types';

/** The write_result built-in (it writes a file, so it goes through the gate). */
export const writeResultTool = defineTool({
  name: 'write_result',
  description:
    "Save the turn's deliverable as a workspace file and show it to the user.\n" +
    'Use when the answer is a document, report or data file; reply in chat for short ones.\n' +
    'The path must stay inside the workspace.',
  parameters: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description: 'File path relative to the workspace, e.g. "reports/summary.md".',
      },
      content: { type: 'string', description: 'The full file content as text, e.g. "# Summary\\n...".' },
      title: {
        type: 'string',
        default: '',
        description: 'A short title the app shows for it, e.g. "Weekly report"; the file name when empty.',
      },
      overwrite: { type: 'boolean', default: false, description: 'Replace an existing file of that name.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  flags: { systemUse: true },
  timeoutMs: 60_000,
  handler: async (args, ctx) => {
    const relative = typeof args.path === 'string' ? args.path.trim() : '';
    if (!relative) throw new ToolError('invalid_arguments', '`path` must be a non-empty relative path');
    const workspace = path.resolve(ctx.workspace);
    const target = path.resolve(workspace, relative);
    if (target !== workspace && !target.startsWith(workspace + path.sep)) {
      throw new ToolError('invalid_arguments', `\`path\` must stay inside the workspace ${workspace}`);
    }
    const content = typeof args.content === 'string' ? args.content : '';
    const exists = await fs.stat(target).then(
      () => true,
      () => false,
    );
    if (exists && args.overwrite !== true) {
      throw new ToolError('exists', `${relative} already exists; pass overwrite=true to replace it`);
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Write to a temp file and rename, so a reader never sees half a file.
    const temp = `${target}.${process.pid}.tmp`;
    await fs.writeFile(temp, content, { signal: ctx.signal });
    await fs.rename(temp, target);
    const bytes = Buffer.byteLength(content);
    const title =
      typeof args.title === 'string' && args.title.trim() ? args.title.trim() : path.basename(target);
    ctx.services.chat?.publishResult(ctx.chatId, { path: target, title, bytes });
    return `Saved ${title} to ${target} (${bytes} bytes).`;
  },
});
