// generate_image: images from a prompt through an OpenAI-compatible images API, saved into the workspace.
import path from 'node:path';
import type { ToolContext } from '../sdk/types';
import { defineTool, ToolError } from '../sdk/types';
import { AddressGuard } from '../sdk/web/address-guard';
import { booleanArg, integerArg, stringArg } from './web/arguments';
import { GuardedClient } from './web/guarded-client';
import { postMediaApi } from './web/media-api';
import { readCapped } from './web/read-body';
import { resolveWebSettings } from '../sdk/web/web-settings';
import { assertFree, freeName, saveFile, slug, workspaceTarget } from './web/workspace-file';

/** Most images one call may ask for. */
export const MAX_IMAGES = 4;

/** The generate_image built-in: gated (it spends API credit and writes files); the default 15 min. */
export const generateImageTool = defineTool({
  name: 'generate_image',
  description:
    'Generate images from a text prompt and save them in the workspace.\n' +
    'Use when the user wants a picture or icon; html_template for charts and reports.\n' +
    'Needs an images API key, asked for when missing.',
  parameters: {
    type: 'object',
    properties: {
      prompt: {
        type: 'string',
        description:
          'What the image shows, in detail, e.g. "a red fox asleep in snow, watercolour, soft light".',
      },
      size: {
        type: 'string',
        default: '',
        description:
          'Width x height in pixels as the model supports, e.g. "1024x1024" or "1536x1024"; empty for the API default.',
      },
      n: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_IMAGES,
        default: 1,
        description: `How many images, 1 to ${MAX_IMAGES}, e.g. 2.`,
      },
      path: {
        type: 'string',
        default: '',
        description:
          'Workspace-relative file path, e.g. "images/fox.png"; several images get -1, -2 … before the extension. ' +
          'Empty: a name from the prompt under images/.',
      },
      overwrite: { type: 'boolean', default: false, description: 'Replace existing files at path.' },
    },
    required: ['prompt'],
    additionalProperties: false,
  },
  handler: async (args, ctx) => {
    const prompt = stringArg(args, 'prompt', true);
    const size = stringArg(args, 'size');
    if (size && !/^(?:\d{2,5}x\d{2,5}|auto)$/.test(size))
      throw new ToolError('invalid_arguments', '`size` must look like "1024x1024"', { parameter: 'size' });
    const n = integerArg(args, 'n', 1, 1, MAX_IMAGES);
    const overwrite = booleanArg(args, 'overwrite', false);
    const relative = stringArg(args, 'path');
    const named = relative ? await plannedTargets(ctx.workspace, relative, n, overwrite) : null;

    const settings = resolveWebSettings(ctx.services.web);
    ctx.progress({ message: `waiting for the images API (${settings.images.model})` });
    const payload: Record<string, unknown> = { model: settings.images.model, prompt, n };
    if (size) payload.size = size;
    const response = await postMediaApi(settings.images, '/images/generations', payload, ctx, 'images');
    const items = imageItems(response.bytes);
    if (items.length === 0) throw new ToolError('api_error', 'the images API returned no image');

    const saved: Array<{ path: string; bytes: number }> = [];
    const revised: string[] = [];
    for (const [index, item] of items.slice(0, n).entries()) {
      const bytes = item.b64
        ? Buffer.from(item.b64, 'base64')
        : await download(item.url ?? '', settings.images.baseUrl, ctx);
      const target =
        named?.[index] ??
        (await freeName(
          path.join(
            path.resolve(ctx.workspace),
            'images',
            `${slug(prompt, 'image')}.${imageExtension(bytes)}`,
          ),
        ));
      const shown = path.relative(ctx.workspace, target);
      await saveFile(ctx.workspace, target, overwrite, 'path', bytes, ctx.signal);
      saved.push({ path: shown, bytes: bytes.length });
      if (item.revised) revised.push(item.revised);
    }
    const lines = saved.map((file) => `${file.path} (${file.bytes} bytes)`);
    return {
      content: [
        {
          type: 'text',
          text:
            `Saved ${saved.length} image${saved.length === 1 ? '' : 's'}: ${lines.join(', ')}` +
            (revised[0] ? `\nThe API revised the prompt to: ${revised[0]}` : ''),
        },
      ],
      data: { paths: saved.map((file) => file.path), revisedPrompts: revised },
    };
  },
});

async function plannedTargets(
  workspace: string,
  relative: string,
  n: number,
  overwrite: boolean,
): Promise<string[]> {
  const ext = path.extname(relative) || '.png';
  const stem = path.extname(relative) ? relative.slice(0, -ext.length) : relative;
  const names = n === 1 ? [`${stem}${ext}`] : Array.from({ length: n }, (_, i) => `${stem}-${i + 1}${ext}`);
  const targets = await Promise.all(names.map((name) => workspaceTarget(workspace, name, 'path')));
  // Checked before generating, so no API credit is spent on images that could not be saved.
  for (const [i, target] of targets.entries()) await assertFree(target, overwrite, names[i] ?? target);
  return targets;
}

function imageItems(bytes: Buffer): Array<{ b64?: string; url?: string; revised?: string }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ToolError('api_error', 'the images API did not answer with JSON');
  }
  const data = (parsed as { data?: unknown }).data;
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const e = entry as Record<string, unknown>;
    const item: { b64?: string; url?: string; revised?: string } = {};
    if (typeof e.b64_json === 'string') item.b64 = e.b64_json;
    else if (typeof e.url === 'string') item.url = e.url;
    else return [];
    if (typeof e.revised_prompt === 'string') item.revised = e.revised_prompt;
    return [item];
  });
}

// Some APIs answer with URLs instead of base64: fetched through the address guard, the API's own host allowed.
async function download(url: string, baseUrl: string, ctx: ToolContext): Promise<Buffer> {
  const settings = resolveWebSettings(ctx.services.web);
  const guard = new AddressGuard({
    ...settings,
    allowedHosts: [...settings.allowedHosts, new URL(baseUrl).hostname],
  });
  const client = new GuardedClient(guard);
  try {
    const target = URL.canParse(url) ? new URL(url) : null;
    if (!target)
      throw new ToolError('api_error', 'the images API returned neither image data nor a valid URL');
    const response = await client.request({ method: 'GET', url: target, signal: ctx.signal });
    if (response.status >= 400)
      throw new ToolError('api_error', `the generated image could not be fetched (HTTP ${response.status})`);
    return (await readCapped(response.body, 100 * 1024 * 1024)).bytes;
  } finally {
    await client.close();
  }
}

function imageExtension(bytes: Buffer): string {
  if (bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpg';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  if (bytes.subarray(0, 3).toString('latin1') === 'GIF') return 'gif';
  return 'png';
}
