// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { DialogRequest } from '../../preload/contract';
import { chooseLanguage } from '../i18n/i18n';
import { notificationText, titleWithCount } from './attention';

const approval = {
  kind: 'approval',
  id: 'd1',
  chatId: 'c1',
  chatTitle: 'Release',
  items: [{ tool: 'run_command' }],
  pending: [0],
  timeoutMs: null,
  openedAt: 0,
} as unknown as DialogRequest;

afterEach(() => chooseLanguage('system'));

describe('attention words', () => {
  it('counts waiting dialogs in the title and names what waits, in the UI’s language', () => {
    expect(titleWithCount('Agenvoy', 0)).toBe('Agenvoy');
    expect(titleWithCount('Agenvoy', 2)).toBe('(2) Agenvoy');
    expect(notificationText(approval)).toEqual({
      title: 'Approval needed: run_command',
      body: 'In chat “Release”. Click to answer.',
    });
    chooseLanguage('zh-TW');
    expect(titleWithCount('Agenvoy', 1_234)).toBe('（1,234）Agenvoy');
    expect(notificationText(approval).title).toBe('需要核准：run_command');
  });
});
