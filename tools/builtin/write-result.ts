// write_result: saves the turn's deliverable into the workspace and shows it in the app.
import path from 'node:path';
import { safeWriteFile } from '../sdk/safe-write';
import { defineTool, ToolError } from '../sdk/types';

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
    const content = typeof args.content === 'string' ? args.content : '';
    // The safe writer: inside the workspace through every symlink, created exclusively unless overwrite
    // (docs/security.md, "Files the tools write").
    const written = await safeWriteFile(
      { workspace: ctx.workspace, path: relative, parameter: 'path', overwrite: args.overwrite === true },
      content,
      ctx.signal,
    );
    const target = written.path;
    const title =
      typeof args.title === 'string' && args.title.trim() ? args.title.trim() : path.basename(target);
    ctx.services.chat?.publishResult(ctx.chatId, { path: target, title, bytes: written.bytes });
    return `Saved ${title} to ${target} (${written.bytes} bytes).`;
  },
});
