// What every check produces: a finding, with its place in the course; what could not be read, and
// the documents that were.
// Messages are api/i18n Messages, rendered in the report's language only when written.
import type { ItemPlace } from '../brightspace/places.ts';
import type { Message } from '../i18n/messages.ts';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding extends ItemPlace {
  /** A check id from the catalogue, e.g. `link.broken`, `a11y.image-alt`. */
  check: string;
  severity: Severity;
  /** The address the finding is about (the link, the media, the document, the page), when there is one. */
  url: string | null;
  message: Message;
  /** The text or image alt the author sees for a link, as in the editor. */
  linkText?: string;
  /** Where in the item: the element and attribute (`a href`, `img srcset`, `style url()`), or an element's HTML. */
  element?: string;
  /** A CSS selector of the element, where one is known (accessibility). */
  selector?: string;
  /** The page of a PDF or the slide of a presentation. */
  page?: number;
  /** How many times the same thing occurs in this item (one finding stands for all). */
  count?: number;
  /** A page that explains the rule (axe's help link). */
  helpUrl?: string;
  /** What the finding concerns within its item, for a fingerprint that survives unrelated edits. */
  subject?: string;
  /** An `info` finding a person must look at: a check that could not decide ("Needs review"). */
  review?: boolean;
  /** The document (its address) the finding was found in: a File topic's file, or one a page links to. */
  document?: string;
}

/** Something the engine could not read, with why; listed in place in the report. */
export interface NotScanned extends ItemPlace {
  title: string;
  reason: Message;
  /** The address of the thing not scanned, when there is one (a document, a tool's page). */
  url?: string;
}

/** A document that was read and checked, where it was found. */
export interface CheckedDocument extends ItemPlace {
  url: string;
  type: 'pdf' | 'docx' | 'pptx';
  /** The title in its properties, or null when it has none. */
  title: string | null;
  /** Pages of a PDF or Word file, slides of a presentation; null when the file does not say. */
  pages: number | null;
  /** Read because a page links to it, rather than being a File topic of its own. */
  linked: boolean;
}
