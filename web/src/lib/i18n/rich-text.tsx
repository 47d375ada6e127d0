// The elements a message may use, and how each renders. The provider passes RICH_TEXT_ELEMENTS to
// react-intl, so any message can use the simple tags; link, button and tooltip-help need something
// from the code that shows the message (an address, an action, the help text) and render their
// text plainly until it passes one, for instance:
//   intl.formatMessage({ id }, { link: linkTo('https://example.com/', { newTab: true }) })
import type { ReactNode } from 'react';
import { TooltipHelp } from '@/components/tooltip-help/tooltip-help';
import type { RichTextTag } from '@/lib/i18n/message-guard';

export type RichTextRenderer = (chunks: ReactNode[]) => ReactNode;

const plain: RichTextRenderer = (chunks) => <>{chunks}</>;

export const RICH_TEXT_ELEMENTS: Readonly<Record<RichTextTag, RichTextRenderer>> = {
  b: (chunks) => <b>{chunks}</b>,
  br: () => <br />,
  em: (chunks) => <em>{chunks}</em>,
  i: (chunks) => <i>{chunks}</i>,
  p: (chunks) => <p>{chunks}</p>,
  strong: (chunks) => <strong>{chunks}</strong>,
  button: plain,
  link: plain,
  'tooltip-help': plain,
};

/** `<link>` as a link to `href`; in a new tab, it also says so to screen readers. */
export function linkTo(href: string, { newTab = false, newTabLabel }: { newTab?: boolean; newTabLabel?: string } = {}): RichTextRenderer {
  return (chunks) =>
    newTab ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {chunks}
        {newTabLabel && (
          <>
            {' '}
            <span className="visually-hidden">{newTabLabel}</span>
          </>
        )}
      </a>
    ) : (
      <a href={href}>{chunks}</a>
    );
}

/** `<button>` as a button that reads like a link and runs `onClick`. */
export function buttonFor(onClick: () => void): RichTextRenderer {
  return (chunks) => (
    <button type="button" className="button button--link" onClick={onClick}>
      {chunks}
    </button>
  );
}

/** `<tooltip-help>` as a term that explains itself with `help`. */
export function tooltipHelp(help: ReactNode): RichTextRenderer {
  return (chunks) => <TooltipHelp help={help}>{chunks}</TooltipHelp>;
}
