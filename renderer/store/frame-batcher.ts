// Collects items and hands them over once per animation frame, so 100 streamed tokens a second cost ~60 renders, not 100.

/** A per-frame batch of items. */
export interface FrameBatcher<T> {
  push(item: T): void;
  /** Hands over what is pending now (before an event that must come after it). */
  flush(): void;
  dispose(): void;
}

// Hidden pages get no animation frames; a timer makes sure text still arrives.
const FALLBACK_MS = 100;

/** Creates a batcher that calls `deliver` with the items of each frame, in order. */
export function frameBatcher<T>(deliver: (items: T[]) => void): FrameBatcher<T> {
  let pending: T[] = [];
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (frame !== null && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
    frame = null;
    timer = null;
  };
  const flush = () => {
    cancel();
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    deliver(items);
  };
  return {
    push(item) {
      pending.push(item);
      if (timer !== null) return;
      if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(flush);
      timer = setTimeout(flush, FALLBACK_MS);
    },
    flush,
    dispose() {
      cancel();
      pending = [];
    },
  };
}
