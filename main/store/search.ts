// Full-text search over messages: FTS5 ranked by bm25 when the index exists, a LIKE scan otherwise.
import type Database from 'better-sqlite3';
import { likePattern } from './chats';
import type { MessageRow } from './message-rows';
import { hasSearchIndex } from './schema-search';

/** Options of `searchMessages`. */
export interface SearchOptions {
  /** Only this chat's messages. */
  chatId?: string;
  limit?: number;
}

/** One matching message, with the matched words marked «like this» in its snippet. */
export interface SearchHit {
  chatId: string;
  messageId: number;
  seq: number;
  role: MessageRow['role'];
  snippet: string;
  createdAt: number;
}

/** Default number of hits. */
export const SEARCH_LIMIT = 20;

const OPEN = '«';
const CLOSE = '»';
const CONTEXT_CHARS = 60;

/** The whitespace-separated words of a query. */
function words(query: string): string[] {
  return query.split(/\s+/).filter((word) => word.length > 0);
}

/** An FTS5 query matching every word as a quoted prefix, so user text is never read as query syntax. */
export function ftsQuery(query: string): string {
  return words(query)
    .map((word) => `"${word.replace(/"/g, '""')}"*`)
    .join(' ');
}

/** Searches message text across chats or in one; best matches first (newest first without FTS5). */
export function searchMessages(
  db: Database.Database,
  query: string,
  options: SearchOptions = {},
): SearchHit[] {
  if (words(query).length === 0) return [];
  return hasSearchIndex(db) ? searchFts(db, query, options) : searchLike(db, query, options);
}

interface HitRow {
  chat_id: string;
  id: number;
  seq: number;
  role: MessageRow['role'];
  snippet: string;
  created_at: number;
}

function toHit(row: HitRow): SearchHit {
  return {
    chatId: row.chat_id,
    messageId: row.id,
    seq: row.seq,
    role: row.role,
    snippet: row.snippet,
    createdAt: row.created_at,
  };
}

function searchFts(db: Database.Database, query: string, options: SearchOptions): SearchHit[] {
  const rows = db
    .prepare(
      `SELECT m.chat_id, m.id, m.seq, m.role, m.created_at,
              snippet(messages_fts, 0, '${OPEN}', '${CLOSE}', '…', 16) AS snippet
       FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
       WHERE messages_fts MATCH @match AND (@chatId IS NULL OR m.chat_id = @chatId)
       ORDER BY bm25(messages_fts), m.id DESC LIMIT @limit`,
    )
    .all({ match: ftsQuery(query), chatId: options.chatId ?? null, limit: options.limit ?? SEARCH_LIMIT });
  return (rows as HitRow[]).map(toHit);
}

function searchLike(db: Database.Database, query: string, options: SearchOptions): SearchHit[] {
  const terms = words(query);
  const where = terms.map((_, i) => `text LIKE @w${i} ESCAPE '\\'`).join(' AND ');
  const params: Record<string, unknown> = {
    chatId: options.chatId ?? null,
    limit: options.limit ?? SEARCH_LIMIT,
  };
  terms.forEach((term, i) => (params[`w${i}`] = likePattern(term)));
  const rows = db
    .prepare(
      `SELECT chat_id, id, seq, role, created_at, text FROM messages
       WHERE ${where} AND (@chatId IS NULL OR chat_id = @chatId) ORDER BY id DESC LIMIT @limit`,
    )
    .all(params) as Array<Omit<HitRow, 'snippet'> & { text: string }>;
  return rows.map((row) => toHit({ ...row, snippet: likeSnippet(row.text, terms[0] as string) }));
}

/** The text around the first match of `term`, marked like FTS5's snippet. */
export function likeSnippet(text: string, term: string): string {
  const at = text.toLowerCase().indexOf(term.toLowerCase());
  if (at < 0) return text.slice(0, CONTEXT_CHARS * 2);
  const start = Math.max(0, at - CONTEXT_CHARS);
  const end = Math.min(text.length, at + term.length + CONTEXT_CHARS);
  return (
    (start > 0 ? '…' : '') +
    text.slice(start, at) +
    OPEN +
    text.slice(at, at + term.length) +
    CLOSE +
    text.slice(at + term.length, end) +
    (end < text.length ? '…' : '')
  );
}
