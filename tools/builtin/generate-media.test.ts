import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateAudioTool } from './generate-audio';
import { generateImageTool } from './generate-image';
import { testContext } from '../sdk/testing/tool-context';
import type { WebSettings } from '../sdk/web/web-settings';
import type { LocalServer } from './web/testing/local-server';
import { startLocalServer } from './web/testing/local-server';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const MP3 = Buffer.from('ID3\u0003\u0000fake-mp3-frames', 'latin1');

let workspace: string;
const servers: LocalServer[] = [];
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'generate-media-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(workspace, { recursive: true, force: true });
});

// Speaks the OpenAI images and speech APIs as the real service answers them.
async function fakeOpenAi() {
  const s = await startLocalServer((req, res, body) => {
    // Where a URL result points: served without a key, like a signed storage link.
    if (req.url === '/files/img.png') return void res.end(PNG);
    if (req.headers.authorization !== 'Bearer sk-good') {
      res.writeHead(401, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
      );
    }
    const payload = JSON.parse(body) as Record<string, unknown>;
    if (payload.prompt === 'hang' || payload.input === 'hang') return;
    if (req.url === '/v1/images/generations') {
      if (payload.prompt === 'by url') {
        return void res.end(
          JSON.stringify({ created: 1, data: [{ url: `http://127.0.0.1:${s.port}/files/img.png` }] }),
        );
      }
      const data = Array.from({ length: Number(payload.n ?? 1) }, () => ({
        b64_json: PNG.toString('base64'),
        revised_prompt: 'a fox, revised',
      }));
      return void res.end(JSON.stringify({ created: 1, data }));
    }
    if (req.url === '/v1/audio/speech') {
      res.setHeader('content-type', payload.response_format === 'wav' ? 'audio/wav' : 'audio/mpeg');
      return void res.end(MP3);
    }
    res.writeHead(404).end();
  });
  servers.push(s);
  return s;
}

function context(web: WebSettings, options: { secrets?: Record<string, string>; signal?: AbortSignal } = {}) {
  return testContext({
    workspace,
    services: { web },
    getSecret: async (key) => (options.secrets ?? { OPENAI_API_KEY: 'sk-good' })[key],
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

const api = (s: LocalServer) => ({ baseUrl: `${s.url}/v1`, model: 'test-model', keyName: 'OPENAI_API_KEY' });

describe('generate_image', () => {
  it('posts to {baseUrl}/images/generations with the key and saves the images', async () => {
    const s = await fakeOpenAi();
    const { ctx, progress } = context({ images: api(s) });
    const result = (await generateImageTool.handler(
      { prompt: 'A red fox in snow', n: 2, size: '512x512' },
      ctx,
    )) as {
      data: { paths: string[] };
    };
    expect(result.data.paths).toEqual([
      path.join('images', 'a-red-fox-in-snow.png'),
      path.join('images', 'a-red-fox-in-snow-2.png'),
    ]);
    expect(fs.readFileSync(path.join(workspace, 'images/a-red-fox-in-snow.png')).equals(PNG)).toBe(true);
    expect(JSON.parse(s.requests[0]?.body ?? '')).toEqual({
      model: 'test-model',
      prompt: 'A red fox in snow',
      n: 2,
      size: '512x512',
    });
    expect(progress[0]?.message).toContain('images API');
    expect(JSON.stringify(result)).toContain('a fox, revised');
  });

  it('saves numbered files at an explicit path and refuses to overwrite before spending credit', async () => {
    const s = await fakeOpenAi();
    const { ctx } = context({ images: api(s) });
    await generateImageTool.handler({ prompt: 'fox', n: 2, path: 'art/fox.png' }, ctx);
    expect(fs.readdirSync(path.join(workspace, 'art')).sort()).toEqual(['fox-1.png', 'fox-2.png']);
    await expect(
      generateImageTool.handler({ prompt: 'fox', n: 2, path: 'art/fox.png' }, ctx),
    ).rejects.toMatchObject({
      code: 'exists',
    });
    expect(s.requests).toHaveLength(1);
  });

  it('fetches URL results through the address guard, the API host allowed', async () => {
    const s = await fakeOpenAi();
    const { ctx } = context({ images: api(s) });
    await generateImageTool.handler({ prompt: 'by url', path: 'u.png' }, ctx);
    expect(fs.readFileSync(path.join(workspace, 'u.png')).equals(PNG)).toBe(true);
  });

  it('rejects bad input naming the parameter', async () => {
    const { ctx } = context({});
    await expect(generateImageTool.handler({}, ctx)).rejects.toThrow(/`prompt` is required/);
    await expect(generateImageTool.handler({ prompt: 'x', n: 9 }, ctx)).rejects.toThrow(
      /`n` must be a whole number from 1 to 4/,
    );
    await expect(generateImageTool.handler({ prompt: 'x', size: 'big' }, ctx)).rejects.toThrow(
      /`size` must look like/,
    );
    await expect(generateImageTool.handler({ prompt: 'x', path: '../x.png' }, ctx)).rejects.toThrow(
      /`path` must stay inside/,
    );
  });

  it('names a missing or rejected key in a CredentialError', async () => {
    const s = await fakeOpenAi();
    const missing = context({ images: api(s) }, { secrets: {} }).ctx;
    await expect(generateImageTool.handler({ prompt: 'fox' }, missing)).rejects.toMatchObject({
      key: 'OPENAI_API_KEY',
      reason: 'missing',
    });
    const wrong = context({ images: api(s) }, { secrets: { OPENAI_API_KEY: 'sk-old' } }).ctx;
    const error = await Promise.resolve(generateImageTool.handler({ prompt: 'fox' }, wrong)).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ key: 'OPENAI_API_KEY', reason: 'rejected' });
    expect(String(error)).toContain('Incorrect API key provided');
  });

  it('is stopped by its signal at the limit, closing the connection', async () => {
    const s = await fakeOpenAi();
    const { ctx } = context({ images: api(s) }, { signal: AbortSignal.timeout(300) });
    await expect(generateImageTool.handler({ prompt: 'hang' }, ctx)).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    await s.allClosed();
    expect(fs.readdirSync(workspace)).toEqual([]);
  });
});

describe('generate_audio', () => {
  it('posts to {baseUrl}/audio/speech and saves the audio file', async () => {
    const s = await fakeOpenAi();
    const { ctx } = context({ audio: { ...api(s), voice: 'nova' } });
    const result = await generateAudioTool.handler(
      { text: 'Welcome to the review.', instructions: 'calm' },
      ctx,
    );
    expect(JSON.stringify(result)).toContain(path.join('audio', 'welcome-to-the-review.mp3'));
    expect(fs.readFileSync(path.join(workspace, 'audio/welcome-to-the-review.mp3')).equals(MP3)).toBe(true);
    expect(JSON.parse(s.requests[0]?.body ?? '')).toEqual({
      model: 'test-model',
      input: 'Welcome to the review.',
      voice: 'nova',
      response_format: 'mp3',
      instructions: 'calm',
    });
  });

  it('saves at an explicit path in the chosen format, never overwriting unless asked', async () => {
    const s = await fakeOpenAi();
    const { ctx } = context({ audio: api(s) });
    await generateAudioTool.handler({ text: 'hi', format: 'wav', voice: 'onyx', path: 'clips/hi.wav' }, ctx);
    expect(JSON.parse(s.requests[0]?.body ?? '')).toMatchObject({ voice: 'onyx', response_format: 'wav' });
    await expect(generateAudioTool.handler({ text: 'hi', path: 'clips/hi.wav' }, ctx)).rejects.toMatchObject({
      code: 'exists',
    });
    await generateAudioTool.handler({ text: 'hi', path: 'clips/hi.wav', overwrite: true }, ctx);
    expect(s.requests).toHaveLength(2);
  });

  it('rejects bad input naming the parameter', async () => {
    const { ctx } = context({});
    await expect(generateAudioTool.handler({ text: '' }, ctx)).rejects.toThrow(/`text` must not be empty/);
    await expect(generateAudioTool.handler({ text: 'x', format: 'ogg' }, ctx)).rejects.toThrow(
      /`format` must be one of/,
    );
    await expect(generateAudioTool.handler({ text: 'x', path: '/tmp/x.mp3' }, ctx)).rejects.toThrow(
      /`path` must stay inside/,
    );
  });

  it('names a missing or rejected key, and sends none when keyName is empty', async () => {
    const s = await fakeOpenAi();
    await expect(
      generateAudioTool.handler({ text: 'x' }, context({ audio: api(s) }, { secrets: {} }).ctx),
    ).rejects.toMatchObject({
      key: 'OPENAI_API_KEY',
      reason: 'missing',
    });
    const keyless = context({ audio: { ...api(s), keyName: '' } }, { secrets: {} }).ctx;
    await expect(generateAudioTool.handler({ text: 'x' }, keyless)).rejects.toMatchObject({
      code: 'api_error',
    });
    expect(s.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('is cancelled by its signal, closing the connection', async () => {
    const s = await fakeOpenAi();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 150);
    const { ctx } = context({ audio: api(s) }, { signal: controller.signal });
    await expect(generateAudioTool.handler({ text: 'hang' }, ctx)).rejects.toThrow('cancelled by the user');
    await s.allClosed();
  });
});
