// Finds markdown emphasis and headings in plain text without mistaking identifiers or globs for them.

/** One piece of markdown found in a text. */
export interface MarkdownHit {
  kind: 'emphasis' | 'heading';
  text: string;
}

// Emphasis must open before a letter or digit and close after a non-space, and `_`/`*` runs must not
// touch a letter or digit on the outside: so find_tools, mcp__github__*, 2*3*4, *.txt and src/**/x/**
// are not emphasis, while **bold**, __bold__, *italic* and _italic_ are.
const EMPHASIS: readonly RegExp[] = [
  /(?<![\p{L}\p{N}*])\*\*[\p{L}\p{N}](?:[^\n]*?[^\s*])?\*\*(?![\p{L}\p{N}*])/gu,
  /(?<![\p{L}\p{N}_])__[\p{L}\p{N}](?:[^\n]*?[^\s_])?__(?![\p{L}\p{N}_])/gu,
  /(?<![\p{L}\p{N}*])\*[\p{L}\p{N}](?:[^*\n]*?[^\s*])?\*(?![\p{L}\p{N}*])/gu,
  /(?<![\p{L}\p{N}_])_[\p{L}\p{N}](?:[^_\n]*?[^\s_])?_(?![\p{L}\p{N}_])/gu,
];

// ATX headings ("# Title", also "#Title": a description has no reason to start a line with #) and
// setext underlines ("===" or "---" alone on a line).
const HEADING = /^\s*#/;
const SETEXT_UNDERLINE = /^\s*(?:={3,}|-{3,})\s*$/;

// Inline code is literal text: `**/*.ts` or `__init__` inside backquotes is not emphasis.
const CODE_SPAN = /`[^`\n]*`/g;

/** Markdown emphasis and headings in `text`, in order of kind then position. */
export function findMarkdown(text: string): MarkdownHit[] {
  const hits: MarkdownHit[] = [];
  const plain = text.replace(CODE_SPAN, (span) => ' '.repeat(span.length));
  for (const line of plain.split(/\r?\n/)) {
    if (HEADING.test(line) || SETEXT_UNDERLINE.test(line)) hits.push({ kind: 'heading', text: line.trim() });
  }
  for (const pattern of EMPHASIS) {
    for (const match of plain.matchAll(pattern)) hits.push({ kind: 'emphasis', text: match[0] });
  }
  return hits;
}
