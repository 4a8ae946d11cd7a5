// Which parameter schemas are known to compile, kept on disk (desktop/cache/schema-checks.json) so a command that starts
// over hundreds of script or MCP tools does not compile every schema again to learn that each one compiles
// (docs/hosts.md, "Fast start"). Keyed by a hash of the schema and the validator's version and options. Only success is
// kept: a schema that fails is compiled again each start and reported each time. The file is a hint, never trusted for
// more: a schema listed here is still compiled, with the first call that needs it, and a schema that then fails to
// compile fails that call with the reason; a damaged, oversized or foreign file is ignored and rewritten.
import fs from 'node:fs';
import { writeCacheFileSync } from './atomic-write';
import type { JsonSchema } from '../../tools/sdk/types';
import { shortHash, stableStringify } from './stable-json';

/** The largest cache file read; far more schemas than any machine holds. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** The most hashes kept; the oldest go first. */
const MAX_ENTRIES = 50_000;
const HASH = /^[0-9a-f]{32}$/;

interface CacheFile {
  validator: string;
  compiled: string[];
}

/** The compile check of the registry with a memory of the schemas that compiled before. */
export class SchemaCheckCache {
  private known: Set<string> | null = null;
  private dirty = false;

  /**
   * @param file the cache file (absent: created on the first flush)
   * @param validatorName names the validator's version and options (asked when first needed): a file written for
   *   another is ignored
   */
  constructor(
    readonly file: string,
    private readonly validatorName: () => string,
  ) {}

  private named: string | null = null;

  private get validator(): string {
    this.named ??= this.validatorName();
    return this.named;
  }

  /** Why `schema` cannot be compiled (via `compile`), or null; a schema that compiled before is not compiled now. */
  check(schema: JsonSchema, compile: (schema: JsonSchema) => string | null): string | null {
    let key: string;
    try {
      key = shortHash(stableStringify(schema), 32);
    } catch {
      // A value the hash cannot write (the registry's own steps name it): compile it as before.
      return compile(schema);
    }
    const known = this.load();
    if (known.has(key)) return null;
    const problem = compile(schema);
    if (problem === null) {
      known.add(key);
      this.dirty = true;
    }
    return problem;
  }

  /** Writes the file when it gained schemas (atomically: a reader sees the old file or the new one). */
  flush(): void {
    if (!this.dirty || !this.known) return;
    this.dirty = false;
    const compiled = [...this.known].slice(-MAX_ENTRIES);
    const body: CacheFile = { validator: this.validator, compiled };
    writeCacheFileSync(this.file, JSON.stringify(body));
  }

  private load(): Set<string> {
    if (this.known) return this.known;
    this.known = new Set(this.read());
    return this.known;
  }

  private read(): string[] {
    try {
      if (fs.statSync(this.file).size > MAX_FILE_BYTES) return [];
      const raw: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      if (!raw || typeof raw !== 'object') return [];
      const { validator, compiled } = raw as Partial<CacheFile>;
      if (validator !== this.validator || !Array.isArray(compiled)) return [];
      return compiled
        .slice(-MAX_ENTRIES)
        .filter((hash): hash is string => typeof hash === 'string' && HASH.test(hash));
    } catch {
      return [];
    }
  }
}
