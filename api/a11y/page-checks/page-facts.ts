// What the in-page probe (probe.ts) and the keyboard walk (keyboard.ts) send back from a rendered
// item: raw facts, no verdicts. The judges in api/checks/page-checks.ts turn them into findings.
// Everything here crosses from the browser as JSON, so it holds only plain data.

/** One element as the report names it. */
export interface ElementFact {
  /** Its opening tag and text, on one line and shortened. */
  html: string;
  /** A CSS selector of it in the page. */
  selector: string;
}

export interface LinkFact extends ElementFact {
  /** The accessible name as a screen reader announces it (aria-labelledby, aria-label, text, alt, title). */
  name: string;
  /** The href as written. */
  rawHref: string;
  /** The address it leads to, resolved against the page; empty when it has none. */
  href: string;
  /** The target attribute as written, lower-cased; empty for none. */
  target: string;
  /** The text of its title attribute and of what aria-describedby points at. */
  description: string;
  /** It holds an image (img, svg, input image or role=img) and no text of its own. */
  imageOnly: boolean;
  /** It holds text of its own (not only an image's alternative). */
  hasText: boolean;
  /** The role attribute, lower-cased; empty for none. */
  role: string;
  /** Nothing but white space stands between the end of the previous link and this one. */
  followsLink: boolean;
  /** It carries a click handler (an attribute, a property or a listener). */
  scripted: boolean;
}

export interface ImageFact extends ElementFact {
  alt: string;
  src: string;
}

/** A stretch of text with the language it is marked as. */
export interface TextFact extends ElementFact {
  text: string;
  /** The nearest lang attribute's value (the element's own or an ancestor's), or empty for none. */
  lang: string;
}

/** A block of text with the computed style the typography checks read. */
export interface TextBlockFact extends ElementFact {
  /** Its own text (not that of nested blocks), at most a few hundred characters. */
  text: string;
  textAlign: string;
  textTransform: string;
  /** Lines it takes on the rendered page (its height over its line height). */
  lines: number;
}

export interface TableFact extends ElementFact {
  /** role="presentation" or role="none": the author declared a layout table. */
  layout: boolean;
  rows: number;
  columns: number;
  /** th cells, and cells whose role is columnheader or rowheader. */
  headerCells: number;
  /** td cells with a headers or scope attribute. */
  linkedCells: number;
  caption: boolean;
  summary: boolean;
  /** It holds another table, or its cells hold headings, lists or several paragraphs: laid out, not tabulated. */
  blockContent: boolean;
}

export interface RefreshFact extends ElementFact {
  /** Seconds before the refresh or redirect, or null when the content gives none. */
  delay: number | null;
  /** The address it goes to, when it names one. */
  url: string;
}

/** What tabbing through the page with the keyboard showed. */
export interface KeyboardFacts {
  /** Elements in the page's tab order (as the page says before tabbing). */
  tabbable: number;
  /** Presses of Tab made. */
  presses: number;
  /** The walk reached the end of the page's tab order (rather than a cap or a trap). */
  complete: boolean;
  /** Elements that took the keyboard's focus without any visible change on the rendered page. */
  noVisibleFocus: ElementFact[];
  /** Elements whose script moved the focus away as soon as they got it. */
  focusRemoved: ElementFact[];
  /** Where the focus got stuck: Tab and Shift+Tab left it on these elements. */
  trap: ElementFact[];
  /** Elements that act on a click (or mouse press) but that the keyboard cannot reach. */
  clickOnly: ElementFact[];
}

export interface PageFacts {
  /** The html element's lang attribute, or empty for none. */
  pageLang: string;
  links: LinkFact[];
  images: ImageFact[];
  texts: TextFact[];
  blocks: TextBlockFact[];
  /** Elements whose own text is underlined and that are no link. */
  underlined: ElementFact[];
  /** Elements with text-decoration: blink. */
  blinking: ElementFact[];
  tables: TableFact[];
  refresh: RefreshFact[];
  keyboard: KeyboardFacts | null;
  /** The page asked for more files than one page may (MAX_PAGE_REQUESTS in browser-runner.ts): the cap, and the requests refused past it. */
  requestCap?: { max: number; refused: number };
}

/** What a runner hands on beside axe's outcome of an item: the page checks' facts (browser only; null when they could not be read). */
export interface PageCheckOutcome {
  page?: PageFacts | null;
}
