// @vitest-environment jsdom
// A model's reply holds a bidi override (`open invoice<RLO>fdp.sh`); in the chat it is shown as an escape
// (hidden-characters.ts), but a chat search that matched the reply showed its snippet as written, so the file name
// read reversed there (`invoicehs.pdf`), and the override ran on over the rest of the snippet. The snippet shows it
// as an escape too (docs/security.md, "What the person sees").
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initialAppState, useAppStore } from '../../store/app-store';
import { SearchHits } from './search-hits';

beforeEach(() => useAppStore.setState(initialAppState, true));
afterEach(cleanup);

describe('bidi controls in a search snippet', () => {
  it('are shown as escapes, and the matched words are still marked', () => {
    useAppStore.setState({
      searchHits: [
        {
          chatId: 'c1',
          chatTitle: 'Invoices',
          messageId: 1,
          seq: 1,
          role: 'assistant',
          snippet: 'Done: open «invoice»\u202efdp.sh to pay.',
          createdAt: 0,
        },
      ],
    });
    const { container } = render(<SearchHits />);
    const snippet = container.querySelector('.hit-snippet');
    expect(snippet?.textContent).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/u);
    expect(snippet?.textContent).toContain('invoice\\u{202e}fdp.sh');
    expect(snippet?.querySelector('mark')?.textContent).toBe('invoice');
  });
});
