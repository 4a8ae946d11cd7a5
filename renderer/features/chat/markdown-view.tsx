// Markdown of a message: GitHub-flavoured, raw HTML never rendered, code blocks with their language and a copy button;
// code shows its hidden characters (bidi, zero-width, controls) as escapes and copies what it shows; the rest of the
// text shows bidi embeddings, overrides and isolates so (hidden-characters.ts).
// Links and images are the model's to write (docs/security.md, "Data leaving the machine"): an image is never fetched,
// only http(s) links to other machines are links, and one whose text names another address shows its real host.
import type { ComponentProps, ReactNode } from 'react';
import { Children, isValidElement } from 'react';
import { memo, useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import Markdown from 'react-markdown';
import type { Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { shownCode, shownProse } from './hidden-characters';
import { linkTarget, textNamesHost } from './link-policy';
import { markdownSafe } from './markdown-bounds';

const plugins = [remarkGfm];

/** Renders markdown text; memoised so unchanged messages are not parsed again. */
export const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  // A reply built to stall or crash the parser is shown as its text (markdown-bounds.ts).
  if (!markdownSafe(text)) return <div className="markdown markdown-plain">{shownProse(text)}</div>;
  return (
    <div className="markdown">
      <Markdown remarkPlugins={plugins} components={components} skipHtml>
        {shownProse(text)}
      </Markdown>
    </div>
  );
});

const components: Components = {
  pre: CodeBlock,
  // Inline code (a block's code is read by CodeBlock from its props): hidden characters shown, as in blocks.
  code: ({ className, children }) => (
    <code className={className}>{typeof children === 'string' ? shownCode(children) : children}</code>
  ),
  a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
  // Never an <img>: loading it would send its address, and whatever the model put in it, to a stranger.
  img: ({ src, alt }) => (
    <SafeLink href={typeof src === 'string' ? src : undefined}>{alt || src || ''}</SafeLink>
  ),
};

function SafeLink({ href, children }: { href: string | undefined; children?: ReactNode }) {
  const url = linkTarget(href);
  if (!url) return <span title={href}>{children}</span>;
  return (
    // Links leave the app: the host opens http(s) links in the system browser and refuses others.
    <a href={url.href} target="_blank" rel="noreferrer noopener" title={url.href}>
      {children}
      {!textNamesHost(textOf(children), url) && <span className="link-host"> ({url.host})</span>}
    </a>
  );
}

function textOf(node: ReactNode): string {
  return Children.toArray(node)
    .map((child) =>
      typeof child === 'string' || typeof child === 'number'
        ? String(child)
        : isValidElement<{ children?: ReactNode }>(child)
          ? textOf(child.props.children)
          : '',
    )
    .join('');
}

function CodeBlock({ children }: ComponentProps<'pre'>) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const code = codeChild(children);
  const language = /language-([\w+-]+)/.exec(code?.className ?? '')?.[1];
  // What is shown is what is copied: hidden characters as escapes in both.
  const text = shownCode(String(code?.children ?? '').replace(/\n$/, ''));
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(true));
  };
  return (
    <figure className="code-block">
      <figcaption>
        <span>{language ?? t('chat.code')}</span>
        <button type="button" className="link-button" onClick={copy}>
          {copied ? t('chat.copied') : t('chat.copy')}
        </button>
      </figcaption>
      <pre>
        <code className={code?.className}>{text}</code>
      </pre>
    </figure>
  );
}

function codeChild(children: unknown): { className?: string; children?: unknown } | undefined {
  const node = Array.isArray(children) ? children[0] : children;
  if (node && typeof node === 'object' && 'props' in node)
    return (node as { props: { className?: string; children?: unknown } }).props;
  return undefined;
}
