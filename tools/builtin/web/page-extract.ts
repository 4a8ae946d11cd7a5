// The readable part of an HTML page as markdown: Readability on jsdom, then turndown.
// jsdom is heavy, so it is loaded on first use rather than when the tool list is built.

/** A page reduced to its readable text. */
export interface ExtractedPage {
  title: string;
  byline: string;
  markdown: string;
  /** False when Readability found no article and the whole body was converted instead. */
  article: boolean;
}

/** Extracts the main content of `html` (served from `url`, for relative links) as markdown. */
export async function htmlToMarkdown(html: string, url: string): Promise<ExtractedPage> {
  const [{ JSDOM, VirtualConsole }, { Readability }, { default: TurndownService }] = await Promise.all([
    import('jsdom'),
    import('@mozilla/readability'),
    import('turndown'),
  ]);
  // No scripts run and no subresources load: jsdom's defaults, kept explicit; CSS noise stays out of the log.
  const dom = new JSDOM(html, { url, virtualConsole: new VirtualConsole(), runScripts: undefined });
  try {
    const document = dom.window.document;
    const title = document.title.trim();
    const turndown = new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
    });
    turndown.remove(['script', 'style', 'noscript', 'iframe', 'template']);
    // Readability edits the document it reads, so it gets a clone and the body stays for the fallback.
    const article = new Readability(document.cloneNode(true) as Document).parse();
    if (article?.content) {
      return {
        title: article.title?.trim() || title,
        byline: article.byline?.trim() ?? '',
        markdown: tidy(turndown.turndown(article.content)),
        article: true,
      };
    }
    return {
      title,
      byline: '',
      markdown: tidy(turndown.turndown(document.body?.innerHTML ?? '')),
      article: false,
    };
  } finally {
    dom.window.close();
  }
}

function tidy(markdown: string): string {
  return markdown.replace(/\n{3,}/g, '\n\n').trim();
}
