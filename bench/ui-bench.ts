// The renderer under load, in headless Chromium against browser mode's real host: opening a 5,000-message chat,
// frame times while scrolling it for 5 s (requestAnimationFrame deltas), and streaming 100 tokens per second.
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { openAiEvents } from '../main/agent/providers/testing/openai-test-server';
import type { SseFrame } from '../main/agent/providers/testing/scripted-server';
import { startAppUnderTest } from '../e2e/support/app-under-test';
import { chromiumLaunchOptions } from '../e2e/support/chromium';
import { LAST_SEEDED, seedLongChat } from '../e2e/support/seed-chat';
import type { BenchRow } from './report';
import { percentile } from './report';
import { printRows } from './print';

const MESSAGES = 5000;
const SCROLL_MS = 5000;
const TOKENS = 500;
const TOKEN_MS = 10;
// Twice the rate, to show the headroom.
const FAST_TOKEN_MS = 5;

type StoreWindow = { __zustand: { getState(): { closeChat(): void; openChat(id: string): Promise<void> } } };

/** Measures open time, scrolling frame times and streaming at 100 tokens/s. */
export async function run(): Promise<BenchRow[]> {
  let chatId = '';
  const app = await startAppUnderTest({
    prepare: ({ home, workspace }) => void (chatId = seedLongChat(home, workspace, MESSAGES)),
  });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // tsx keeps function names with a __name helper that the page lacks; functions sent to it need a stand-in.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.addInitScript(installPageHelpers);
    await page.goto(`${app.url}#chat=${chatId}`);
    const cold = await page.evaluate((last) => untilText(last).then(() => performance.now()), LAST_SEEDED);
    const opens: number[] = [];
    for (let i = 0; i < 5; i++) opens.push(await timeOpen(page, chatId));
    const open = percentile(
      opens.sort((a, b) => a - b),
      50,
    );
    const slow = await scrollFrames(page, 30);
    const fling = await scrollFrames(page, 150);
    const stream = await streamTokens(page, app, TOKEN_MS);
    const fast = await streamTokens(page, app, FAST_TOKEN_MS);
    return [
      row(
        'open',
        `chat of ${MESSAGES} messages: click to last message painted (median of 5)`,
        open,
        'ms',
        '≤ 1000 ms',
        open <= 1000,
      ),
      row('open', `page load with the chat in the URL to last message painted`, cold, 'ms'),
      row(
        'scroll',
        `p95 frame time, ${SCROLL_MS / 1000} s at 1,800 px/s (${slow.frames} frames, max ${slow.max} ms)`,
        slow.p95,
        'ms',
        '≤ 20 ms',
        slow.p95 <= 20,
      ),
      row(
        'scroll',
        `p95 frame time, ${SCROLL_MS / 1000} s at 9,000 px/s (${fling.frames} frames, max ${fling.max} ms)`,
        fling.p95,
        'ms',
        '≤ 20 ms',
        fling.p95 <= 20,
      ),
      {
        ...row(
          'stream',
          `${TOKENS} tokens (sent at ${stream.rate}/s): display time / model send time`,
          stream.ratio,
          '×',
          '≤ 1.05',
          stream.ratio <= 1.05,
        ),
        reference: 1,
      },
      row(
        'stream',
        'last token: painted after the model sent it',
        stream.lagMs,
        'ms',
        '≤ 100 ms',
        stream.lagMs <= 100,
      ),
      row(
        'stream',
        `p95 frame time while streaming (${stream.frames} frames)`,
        stream.p95,
        'ms',
        '≤ 20 ms',
        stream.p95 <= 20,
      ),
      row(
        'stream',
        `headroom: ${TOKENS} tokens sent at ${fast.rate}/s, display / send time`,
        fast.ratio,
        '×',
      ),
      row('stream', `headroom: last token painted after sent, at ${fast.rate}/s`, fast.lagMs, 'ms'),
    ];
  } finally {
    await browser.close();
    await app.close();
  }
}

// Closes and reopens the chat, timing until its newest message is painted.
async function timeOpen(page: Page, chatId: string): Promise<number> {
  return page.evaluate(
    async ({ id, last }) => {
      const store = (window as unknown as StoreWindow).__zustand;
      store.getState().closeChat();
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const start = performance.now();
      await store.getState().openChat(id);
      await untilText(last);
      return performance.now() - start;
    },
    { id: chatId, last: LAST_SEEDED },
  );
}

// Scrolls the conversation up from its end by `step` px per frame for SCROLL_MS, recording frame deltas.
async function scrollFrames(page: Page, step: number): Promise<{ p95: number; max: number; frames: number }> {
  const deltas = await page.evaluate(
    ({ step, duration }) =>
      new Promise<number[]>((resolve) => {
        const log = document.querySelector('[role="log"]') as HTMLElement;
        log.scrollTop = log.scrollHeight;
        const out: number[] = [];
        let last = 0;
        let start = 0;
        const frame = (now: number) => {
          if (start === 0) start = now;
          else out.push(now - last);
          last = now;
          // Back to the end when the top is reached, so a fast scroll keeps meeting unmeasured rows.
          log.scrollTop = log.scrollTop <= 0 ? log.scrollHeight : log.scrollTop - step;
          if (now - start < duration) requestAnimationFrame(frame);
          else resolve(out);
        };
        requestAnimationFrame(frame);
      }),
    { step, duration: SCROLL_MS },
  );
  deltas.sort((a, b) => a - b);
  return { p95: round(percentile(deltas, 95)), max: round(deltas.at(-1) ?? NaN), frames: deltas.length };
}

// Streams TOKENS distinct tokens from the model, one every `tokenMs`, and compares painting with sending.
async function streamTokens(page: Page, app: Awaited<ReturnType<typeof startAppUnderTest>>, tokenMs: number) {
  const text = Array.from({ length: TOKENS }, (_, i) => `t${String(i).padStart(4, '0')} `).join('');
  const sent: number[] = [];
  // formatFrame serialises each frame as it writes it, so toJSON marks the moment a token leaves the model.
  const frames: SseFrame[] = openAiEvents([{ text }], { chunkSize: 6 }).map((frame) => ({
    ...frame,
    data:
      typeof frame.data === 'string'
        ? frame.data
        : { ...(frame.data as object), toJSON: stamp(frame.data, sent) },
  }));
  app.model.enqueue({ events: frames, delayMs: tokenMs });
  await page.getByRole('button', { name: 'New chat', exact: true }).click();
  await page.getByLabel('Message', { exact: true }).fill('Stream please');
  const painted = page.evaluate((last) => watchStream(last), `t${String(TOKENS - 1).padStart(4, '0')}`);
  await page.getByRole('button', { name: 'Send' }).click();
  const seen = await painted;
  // Frames carrying text: the role frame and the finish/usage/[DONE] frames are not tokens.
  const tokenTimes = sent.slice(1, 1 + TOKENS);
  const sendMs = (tokenTimes.at(-1) as number) - (tokenTimes[0] as number);
  return {
    ratio: round((seen.last - seen.first) / sendMs),
    rate: Math.round(((TOKENS - 1) * 1000) / sendMs),
    lagMs: round(seen.last - (tokenTimes.at(-1) as number)),
    p95: round(
      percentile(
        seen.deltas.sort((a, b) => a - b),
        95,
      ),
    ),
    frames: seen.deltas.length,
  };
}

function stamp(data: unknown, sent: number[]) {
  return () => {
    sent.push(Date.now());
    const { toJSON: _drop, ...rest } = data as Record<string, unknown>;
    return rest;
  };
}

function row(
  bench: string,
  metric: string,
  value: number,
  unit: string,
  target?: string,
  met?: boolean,
): BenchRow {
  return { bench: `ui ${bench}`, metric, value: round(value), unit, ...(target ? { target, met } : {}) };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

// Page-side helpers (an init script, so the page's CSP does not apply): wait for text to be painted, and watch a
// streamed answer frame by frame.
declare function untilText(text: string): Promise<void>;
declare function watchStream(lastToken: string): Promise<{ first: number; last: number; deltas: number[] }>;

function installPageHelpers(): void {
  const page = window as unknown as Record<string, unknown>;
  const conversation = () => document.querySelector('[role="log"]')?.textContent ?? '';
  page.untilText = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const until = performance.now() + 20_000;
      const check = () => {
        if (conversation().includes(text)) return requestAnimationFrame(() => resolve());
        if (performance.now() > until) return reject(new Error(`"${text}" was not painted within 20 s`));
        requestAnimationFrame(check);
      };
      check();
    });
  page.watchStream = (lastToken: string) =>
    new Promise((resolve) => {
      const deltas: number[] = [];
      let first = 0;
      let previous = 0;
      const frame = (now: number) => {
        if (previous) deltas.push(now - previous);
        previous = now;
        const answer = [...document.querySelectorAll('[aria-label="Assistant"]')].at(-1)?.textContent ?? '';
        if (!first && answer.includes('t0000')) first = Date.now();
        if (answer.includes(lastToken)) return resolve({ first, last: Date.now(), deltas });
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printRows(await run());
