// What a page says of itself, for telling a real page from a "not found" page that answers 200:
// its title, its main heading and its visible text (the start of it). One streaming pass of
// htmlparser2, which stops caring once it has enough text.
import { Parser } from 'htmlparser2';

export interface PageFacts {
  title: string;
  /** The first h1 (a page's main heading), or '' when it has none. */
  heading: string;
  /** Visible text, whitespace collapsed, at most `MAX_TEXT` characters. */
  text: string;
}

/** Enough text to compare two pages; the rest of a long page adds nothing. */
const MAX_TEXT = 8_000;
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

export function pageFactsOf(markup: string): PageFacts {
  let title = '';
  let heading = '';
  let text = '';
  let hidden = 0;
  let inTitle = false;
  let inHeading = 0;
  let headingDone = false;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title') inTitle = true;
        else if (HIDDEN.has(name)) hidden++;
        else if (name === 'h1' && !headingDone) inHeading++;
        if (name === 'br' || name === 'p' || name === 'div' || name === 'li' || /^h[1-6]$/.test(name)) text += ' ';
      },
      ontext(chunk) {
        if (inTitle) title += chunk;
        else if (hidden === 0) {
          if (inHeading > 0) heading += chunk;
          if (text.length < MAX_TEXT) text += chunk;
        }
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        else if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (name === 'h1' && inHeading > 0 && --inHeading === 0) headingDone = true;
        text += ' ';
      },
    },
    { decodeEntities: true },
  );
  parser.end(markup);
  return { title: squash(title), heading: squash(heading), text: squash(text).slice(0, MAX_TEXT) };
}
