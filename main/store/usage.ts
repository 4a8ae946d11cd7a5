// Round usage: the tokens each model round consumed and what it cost, as reported (NULL: not reported).
import type Database from 'better-sqlite3';
import type { TokenUsage } from '../core/model-usage';

/** One round's usage as stored. */
export interface RoundUsageRecord {
  messageId: number;
  chatId: string;
  round: number;
  model: string;
  usage: TokenUsage;
  /** US dollars at the price the table gave when the round ended; null when unknown. */
  costUsd: number | null;
}

interface UsageRow {
  message_id: number;
  chat_id: string;
  round: number;
  model: string;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  cost_usd: number | null;
}

function toRecord(row: UsageRow): RoundUsageRecord {
  return {
    messageId: row.message_id,
    chatId: row.chat_id,
    round: row.round,
    model: row.model,
    usage: {
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
      cacheReadTokens: row.cache_read_tokens,
      cacheWriteTokens: row.cache_write_tokens,
    },
    costUsd: row.cost_usd,
  };
}

/** The round_usage table. */
export class UsageTable {
  private readonly upsert: Database.Statement;
  private readonly byChat: Database.Statement;

  constructor(db: Database.Database) {
    this.upsert = db.prepare(`
      INSERT INTO round_usage (message_id, chat_id, round, model, input_tokens, output_tokens, cache_read_tokens,
                               cache_write_tokens, cost_usd, created_at)
      VALUES (@messageId, @chatId, @round, @model, @input, @output, @cacheRead, @cacheWrite, @cost, @now)
      ON CONFLICT (message_id) DO UPDATE SET input_tokens = excluded.input_tokens,
        output_tokens = excluded.output_tokens, cache_read_tokens = excluded.cache_read_tokens,
        cache_write_tokens = excluded.cache_write_tokens, cost_usd = excluded.cost_usd`);
    this.byChat = db.prepare('SELECT * FROM round_usage WHERE chat_id = ? ORDER BY message_id');
  }

  /** Records one round's usage (again for the same message: replaced); counts come checked (core/model-usage.ts). */
  record(entry: RoundUsageRecord): void {
    this.upsert.run({
      messageId: entry.messageId,
      chatId: entry.chatId,
      round: entry.round,
      model: entry.model,
      input: entry.usage.inputTokens,
      output: entry.usage.outputTokens,
      cacheRead: entry.usage.cacheReadTokens,
      cacheWrite: entry.usage.cacheWriteTokens,
      cost: entry.costUsd,
      now: Date.now(),
    });
  }

  /** A chat's rounds in order. */
  list(chatId: string): RoundUsageRecord[] {
    return (this.byChat.all(chatId) as UsageRow[]).map(toRecord);
  }
}
