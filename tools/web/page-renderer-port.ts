// The app's own page renderer (SPEC: download_file render=true uses an offscreen window in the desktop app,
// the system Chromium elsewhere). Every request the page makes goes through `fetch`, so the address guard holds.
import type { RenderFormat } from './page-render';

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
    signal: AbortSignal;
  }): Promise<Uint8Array>;
}
