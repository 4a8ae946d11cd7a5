// A tiny typed event emitter whose `on` returns its undo.

/** Listener set for one event type; `on` returns an unsubscribe function. */
export class Emitter<T> {
  // Copied on change, not on every emit: a listener added or removed during an emit takes effect from the next one.
  private listeners: ReadonlyArray<(event: T) => void> = [];

  /** Subscribes; returns the unsubscribe. */
  on(listener: (event: T) => void): () => void {
    if (!this.listeners.includes(listener)) this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((other) => other !== listener);
    };
  }

  /** Delivers to every listener; a throwing listener does not stop the others. */
  emit(event: T): void {
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) {
      try {
        (listeners[i] as (event: T) => void)(event);
      } catch (error) {
        console.error('event listener failed:', error);
      }
    }
  }
}
