// A virtualised vertical list: only the rows near the viewport are in the DOM; heights are measured as rows render.
import type { ReactNode } from 'react';
import { memo, useCallback, useLayoutEffect, useMemo, useReducer, useRef } from 'react';
import { VirtualLayout } from './virtual-layout';

/** Props of VirtualList. */
export interface VirtualListProps<T> {
  items: readonly T[];
  /** A stable key per item (heights are remembered by key). */
  keyOf: (item: T) => string;
  render: (item: T, index: number) => ReactNode;
  /** Height assumed for a row not measured yet. */
  estimate?: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
  /** Keep the view pinned to the end while it is there (chat behaviour). */
  followEnd?: boolean;
  className?: string;
  /** The accessible name of the scrolling region. */
  label?: string;
}

// Within this many pixels of the end counts as "at the end".
const END_SLACK = 24;

/** Renders the visible slice of `items` inside a scroller; opens at the end when `followEnd` is set. */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, keyOf, render, estimate = 80, overscan = 6, followEnd = false } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const layout = useMemo(() => new VirtualLayout(estimate), [estimate]);
  const atEnd = useRef(followEnd);
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const keys = useMemo(() => items.map(keyOf), [items, keyOf]);
  layout.setKeys(keys);

  const viewport = scroller.current?.clientHeight || 800;
  const scrollTop = scroller.current?.scrollTop ?? (followEnd ? Number.MAX_SAFE_INTEGER : 0);
  const top = followEnd && atEnd.current ? Math.max(0, layout.totalHeight() - viewport) : scrollTop;
  const range = layout.range(top, viewport, overscan);
  const rangeRef = useRef(range);
  rangeRef.current = range;

  // Pins to the end after every render while following, so new messages and streaming text stay in view.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && followEnd && atEnd.current) el.scrollTop = el.scrollHeight;
  });

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight <= END_SLACK;
    const next = layout.range(el.scrollTop, el.clientHeight, overscan);
    const shown = rangeRef.current;
    // Re-render only when the rendered slice would no longer cover the viewport with some margin.
    if (
      next.start < shown.start ||
      next.end > shown.end ||
      next.start > shown.start + overscan * 2 ||
      next.end < shown.end - overscan * 2
    ) {
      bump();
    }
  }, [layout, overscan]);

  const onMeasure = useCallback(
    (index: number, height: number) => {
      const el = scroller.current;
      // Zero means not laid out (hidden, or a test DOM without layout): keep the estimate.
      if (height <= 0) return;
      const delta = layout.setHeight(index, height);
      if (delta === 0 || !el) return;
      // A row above the viewport changed height: move the scroll position with it so the content does not jump.
      if (!atEnd.current && layout.offsetOf(index) < el.scrollTop) el.scrollTop += delta;
      bump();
    },
    [layout],
  );

  const rows: ReactNode[] = [];
  for (let i = range.start; i < range.end; i++) {
    const item = items[i] as T;
    rows.push(
      <MeasuredRow key={keys[i]} index={i} onMeasure={onMeasure}>
        {render(item, i)}
      </MeasuredRow>,
    );
  }
  return (
    <div
      ref={scroller}
      className={props.className}
      onScroll={onScroll}
      role="log"
      aria-label={props.label}
      tabIndex={0}
    >
      <div className="virtual-canvas" style={{ height: layout.totalHeight() }}>
        <div
          className="virtual-window"
          style={{ transform: `translateY(${layout.offsetOf(range.start)}px)` }}
        >
          {rows}
        </div>
      </div>
    </div>
  );
}

interface MeasuredRowProps {
  index: number;
  onMeasure: (index: number, height: number) => void;
  children: ReactNode;
}

// One row that reports its height now and whenever it changes (streaming text, a card expanding).
const MeasuredRow = memo(function MeasuredRow({ index, onMeasure, children }: MeasuredRowProps) {
  const ref = useRef<HTMLDivElement>(null);
  const indexRef = useRef(index);
  indexRef.current = index;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    onMeasure(indexRef.current, el.offsetHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => onMeasure(indexRef.current, el.offsetHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [onMeasure]);
  return (
    <div ref={ref} className="virtual-row" data-index={index}>
      {children}
    </div>
  );
});
