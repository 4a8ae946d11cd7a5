// generate_audio: text to speech through an OpenAI-compatible speech API, saved into the workspace.
import path from 'node:path';
import { defineTool, ToolError } from '../sdk/types';
import { booleanArg, enumArg, stringArg } from './web/arguments';
import { postMediaApi } from './web/media-api';
import { resolveWebSettings } from '../sdk/web/web-settings';
import { assertFree, freeName, saveFile, slug, workspaceTarget } from './web/workspace-file';

const FORMATS = ['mp3', 'wav', 'opus', 'aac', 'flac', 'pcm'] as const;

/** The generate_audio built-in: gated (it spends API credit and writes a file); 5 min. */
export const generateAudioTool = defineTool({
  name: 'generate_audio',
  description:
    'Turn text into spoken audio and save it as a file in the workspace.\n' +
    'Use when the user wants narration or a voice clip; use generate_image for pictures.\n' +
    'Needs a speech API key, asked for when missing.',
  parameters: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The words to speak, e.g. "Welcome to the quarterly review."' },
      voice: {
        type: 'string',
        default: '',
        description:
          'Voice name the API offers, e.g. "alloy", "nova" or "onyx"; empty for the one in settings.',
      },
      format: {
        type: 'string',
        enum: [...FORMATS],
        default: 'mp3',
        description:
          'Audio file format: mp3 (small, plays anywhere), wav (uncompressed), opus, aac, flac or pcm (raw 24 kHz samples).',
      },
      instructions: {
        type: 'string',
        default: '',
        description:
          'How to speak, for models that take it, e.g. "calm and slow, like a narrator"; empty for none.',
      },
      path: {
        type: 'string',
        default: '',
        description:
          'Workspace-relative file path, e.g. "audio/welcome.mp3"; empty: a name from the text under audio/.',
      },
      overwrite: { type: 'boolean', default: false, description: 'Replace an existing file at path.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  timeoutMs: 5 * 60_000,
  handler: async (args, ctx) => {
    const text = stringArg(args, 'text', true);
    const format = enumArg(args, 'format', FORMATS, 'mp3');
    const instructions = stringArg(args, 'instructions');
    const overwrite = booleanArg(args, 'overwrite', false);
    const relative = stringArg(args, 'path');
    const settings = resolveWebSettings(ctx.services.web);
    const voice = stringArg(args, 'voice') || settings.audio.voice;
    let target: string | null = null;
    if (relative) {
      target = await workspaceTarget(ctx.workspace, relative, 'path');
      // Checked before the API call, so no credit is spent on audio that could not be saved.
      await assertFree(target, overwrite, relative);
    }

    ctx.progress({ message: `waiting for the speech API (${settings.audio.model}, voice ${voice})` });
    const payload: Record<string, unknown> = {
      model: settings.audio.model,
      input: text,
      voice,
      response_format: format,
    };
    if (instructions) payload.instructions = instructions;
    const response = await postMediaApi(settings.audio, '/audio/speech', payload, ctx, 'speech');
    if (response.contentType.includes('json') || response.bytes.length === 0) {
      throw new ToolError('api_error', 'the speech API returned no audio');
    }
    const file =
      target ??
      (await freeName(path.join(path.resolve(ctx.workspace), 'audio', `${slug(text, 'speech')}.${format}`)));
    const shown = path.relative(ctx.workspace, file);
    await saveFile(ctx.workspace, file, overwrite, 'path', response.bytes, ctx.signal);
    return {
      content: [
        {
          type: 'text',
          text: `Saved ${format} audio to ${shown} (${response.bytes.length} bytes, voice ${voice}).`,
        },
      ],
      data: { path: shown, bytes: response.bytes.length, format, voice },
    };
  },
});
