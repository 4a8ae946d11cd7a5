import { describe, expect, it } from 'vitest';
import type { DialogRequest } from '../../preload/contract';
import { attentionWords, languageOf, windowTitle } from './attention-words';

const approval = {
  kind: 'approval',
  id: 'd1',
  chatId: 'c1',
  chatTitle: 'Release notes',
  items: [{ tool: 'run_command' }, { tool: 'write_file' }],
  pending: [0, 1],
  timeoutMs: null,
  openedAt: 0,
} as unknown as DialogRequest;

describe('attention words', () => {
  it('reads the OS locale as the UI does: Chinese is zh-TW, the rest English', () => {
    expect(languageOf('zh-TW')).toBe('zh-TW');
    expect(languageOf('zh-CN')).toBe('zh-TW');
    expect(languageOf('en-GB')).toBe('en');
    expect(languageOf('de')).toBe('en');
  });

  it('names what waits, and where, in both languages', () => {
    expect(attentionWords(approval, 'en-US')).toEqual({
      title: 'Approval needed: run_command, write_file',
      body: 'In chat “Release notes”. Click to answer.',
    });
    expect(attentionWords(approval, 'zh-TW')).toEqual({
      title: '需要核准：run_command, write_file',
      body: '於對話「Release notes」。按一下即可回覆。',
    });
    const secret = {
      kind: 'secret',
      id: 'd2',
      key: 'GITHUB_TOKEN',
      question: 'The GitHub token.',
      forTool: null,
      openedAt: 0,
    };
    expect(attentionWords(secret as unknown as DialogRequest, 'en')).toEqual({
      title: 'Secret needed: GITHUB_TOKEN',
      body: 'The GitHub token.',
    });
    const own = { kind: 'question', id: 'd3', chatId: '', chatTitle: '', questions: [], openedAt: 0 };
    expect(attentionWords(own as unknown as DialogRequest, 'en').body).toBe('Click to answer.');
  });

  it('counts waiting dialogs in the title, and drops the count at zero', () => {
    expect(windowTitle(0, 'en')).toBe('Agenvoy');
    expect(windowTitle(2, 'en')).toBe('(2) Agenvoy');
    expect(windowTitle(3, 'zh-TW')).toBe('（3）Agenvoy');
  });
});
