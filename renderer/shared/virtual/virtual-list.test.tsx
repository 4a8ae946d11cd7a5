// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualList } from './virtual-list';

afterEach(cleanup);

const items = Array.from({ length: 5000 }, (_, i) => ({ id: i, text: `message ${i}` }));
const keyOf = (item: { id: number }) => String(item.id);

describe('VirtualList', () => {
  it('puts only the rows near the viewport in the DOM', () => {
    const render_ = vi.fn((item: { text: string }) => <p>{item.text}</p>);
    render(
      <VirtualList
        items={items}
        keyOf={keyOf}
        render={render_}
        estimate={50}
        overscan={3}
        label="Conversation"
      />,
    );
    const rows = screen.getByRole('log', { name: 'Conversation' }).querySelectorAll('.virtual-row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]?.textContent).toBe('message 0');
    expect(render_.mock.calls.length).toBeLessThan(100);
    // The canvas is as tall as every row together, so the scrollbar is right.
    expect((screen.getByRole('log').firstElementChild as HTMLElement).style.height).toBe(`${5000 * 50}px`);
  });

  it('opens at the end when following it, as a chat does', () => {
    render(
      <VirtualList
        items={items}
        keyOf={keyOf}
        render={(item) => <p>{item.text}</p>}
        estimate={50}
        followEnd
      />,
    );
    const rows = [...screen.getByRole('log').querySelectorAll('.virtual-row')];
    expect(rows.at(-1)?.textContent).toBe('message 4999');
    expect(rows.length).toBeLessThan(40);
    const offset = (screen.getByRole('log').querySelector('.virtual-window') as HTMLElement).style.transform;
    expect(offset).toMatch(/translateY\(\d+px\)/);
  });

  it('shows appended rows while following the end', () => {
    const view = render(
      <VirtualList
        items={items.slice(0, 100)}
        keyOf={keyOf}
        render={(item) => <p>{item.text}</p>}
        estimate={50}
        followEnd
      />,
    );
    view.rerender(
      <VirtualList
        items={items.slice(0, 101)}
        keyOf={keyOf}
        render={(item) => <p>{item.text}</p>}
        estimate={50}
        followEnd
      />,
    );
    expect(screen.getByText('message 100')).toBeTruthy();
  });
});
