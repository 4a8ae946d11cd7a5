// A tiny typed event emitter whose `on` returns its undo.

/** Listener set for one event type; `on` returns an unsubscribe function. */
export class Emitter<T> {
  private readonly listeners = new Set<(event: T) => void>();

  /** Subscribes; returns the unsubscribe. */
  on(listener: (event: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Delivers to every listener; a throwing listener does not stop the others. */
  emit(event: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error('event listener failed:', error);
      }
    }
  }
}
