// What every check produces: a finding, with its place in the course, and what could not be
// scanned. Messages are api/i18n Messages, rendered in the report's language only when written.
import type { Message } from '../i18n/messages.ts';

export type Severity = 'error' | 'warning' | 'info';

/** The kinds of course items a finding can belong to (DESIGN.md, "The engine"). */
export const ITEM_TYPES = ['module', 'topic', 'assignment', 'quiz', 'discussion-forum', 'discussion-topic', 'announcement', 'grade-item', 'course'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/**
 * Where a finding belongs. Content of the modules carries its module (and topic); an item the
 * content opens (a quiz behind a quicklink) keeps that module and topic too; course-wide items
 * (announcements, the gradebook...) have none. `itemType`/`itemId`/`itemTitle` name the item itself.
 */
export interface FindingPlace {
  moduleId: number | null;
  moduleTitle: string | null;
  topicId: number | null;
  topicTitle: string | null;
  itemType: ItemType;
  itemId: number | null;
  itemTitle: string | null;
}

export interface Finding extends FindingPlace {
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
export interface NotScanned extends FindingPlace {
  title: string;
  reason: Message;
  /** The address of the thing not scanned, when there is one (a document, a tool's page). */
  url?: string;
}

/** A document that was read and checked, where it was found. */
export interface CheckedDocument extends FindingPlace {
  url: string;
  type: 'pdf' | 'docx' | 'pptx';
  /** The title in its properties, or null when it has none. */
  title: string | null;
  /** Pages of a PDF or Word file, slides of a presentation; null when the file does not say. */
  pages: number | null;
  /** Read because a page links to it, rather than being a File topic of its own. */
  linked: boolean;
}

export function modulePlace(module: { ModuleId: number; Title: string }): FindingPlace {
  return { moduleId: module.ModuleId, moduleTitle: module.Title, topicId: null, topicTitle: null, itemType: 'module', itemId: module.ModuleId, itemTitle: module.Title };
}

export function topicPlace(module: { ModuleId: number; Title: string }, topic: { TopicId: number; Title: string }): FindingPlace {
  return { moduleId: module.ModuleId, moduleTitle: module.Title, topicId: topic.TopicId, topicTitle: topic.Title, itemType: 'topic', itemId: topic.TopicId, itemTitle: topic.Title };
}

/** An item of its own (an assignment, an announcement...), inside a module's content or course-wide. */
export function itemPlace(itemType: ItemType, itemId: number | null, itemTitle: string, within?: FindingPlace): FindingPlace {
  return {
    moduleId: within?.moduleId ?? null,
    moduleTitle: within?.moduleTitle ?? null,
    topicId: within?.topicId ?? null,
    topicTitle: within?.topicTitle ?? null,
    itemType,
    itemId,
    itemTitle,
  };
}
