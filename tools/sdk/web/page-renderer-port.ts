// The app's own page renderer (docs/tools.md: download_file render=true uses an offscreen window in the desktop
// app, the system Chromium elsewhere). Every request the page makes goes through `fetch`, and every other connection
// through `proxy`, so the address guard holds for all of them (docs/security.md).

/** What a rendered page is saved as. */
export type RenderFormat = 'html' | 'pdf' | 'png';

/** One request the rendered page makes, answered by the tool's guarded client. */
export interface RenderRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** The answer to a RenderRequest; a blocked or failed request rejects. */
export interface RenderResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Renders a page in the host's own browser engine (Electron's offscreen window). */
export interface PageRendererPort {
  render(request: {
    url: string;
    format: RenderFormat;
    fetch: (request: RenderRequest) => Promise<RenderResponse>;
    /**
     * The proxy (e.g. "http://127.0.0.1:41234") every other connection of the page must use (WebSocket, WebRTC
     * over TCP, preconnects): it tunnels only to addresses the same guard allows, pinned to the checked address.
     */
    proxy: string;
    /** Why the guard blocks a ws: or wss: URL (for an early, explained refusal), or null when it allows it. */
    checkSocket: (url: string) => Promise<string | null>;
    signal: AbortSignal;
  }): Promise<Uint8Array>;
}
