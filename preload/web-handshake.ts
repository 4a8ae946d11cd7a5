// Browser mode's handshake (docs/security.md, "Browser mode and mcp serve"): the page never sends its token. It opens
// the socket with a key derived from it and a fresh nonce, and the host's first message proves that it holds the
// token itself. A process that took the port after the host died (another local user) learns only the key, which
// opens nothing, and cannot give the proof, so the page shows it nothing and sends it nothing. WebCrypto only: the
// page (a secure context on 127.0.0.1) and main (Node's globalThis.crypto) run this same code.

/** What the page sends in the socket's query instead of the token. */
const CLIENT_LABEL = 'agenvoy web: page key';
/** What the host signs with the page's nonce. */
const SERVER_LABEL = 'agenvoy web: host proof';
/** A nonce: 128 random bits, base64url. */
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/** The key a page opens its socket with. */
export function pageKey(token: string): Promise<string> {
  return sign(token, CLIENT_LABEL);
}

/** The host's proof for `nonce`. */
export function hostProof(token: string, nonce: string): Promise<string> {
  return sign(token, `${SERVER_LABEL} ${nonce}`);
}

/** A fresh nonce for one connection. */
export function newNonce(): string {
  return base64url(globalThis.crypto.getRandomValues(new Uint8Array(16)));
}

/** Whether `nonce` has the shape `newNonce` gives (anything else is refused before any work). */
export function nonceShaped(nonce: string | null): nonce is string {
  return nonce !== null && NONCE.test(nonce);
}

async function sign(token: string, text: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(token),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return base64url(new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(text))));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
