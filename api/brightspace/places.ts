// Where something is in a Brightspace course: its module and topic, and the item itself (a topic,
// an assignment, an announcement, a grade item, the course). Readers place what they read with it,
// checks place their findings with it, the report groups by it (DESIGN.md, "The engine").

/** The kinds of course items a place can name. */
export const ITEM_TYPES = ['module', 'topic', 'assignment', 'quiz', 'discussion-forum', 'discussion-topic', 'announcement', 'grade-item', 'course'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/**
 * Content of the modules carries its module (and topic); an item the content opens (a quiz behind
 * a quicklink) keeps that module and topic too; course-wide items (announcements, the gradebook...)
 * have none. `itemType`/`itemId`/`itemTitle` name the item itself.
 */
export interface ItemPlace {
  moduleId: number | null;
  moduleTitle: string | null;
  topicId: number | null;
  topicTitle: string | null;
  itemType: ItemType;
  itemId: number | null;
  itemTitle: string | null;
  /** A quiz's question, by its number in the quiz (from 1), for what is found in the question. */
  question?: number;
  /** A frame of the item's page (its address), for what is found inside the frame. */
  frame?: string;
}

export function modulePlace(module: { ModuleId: number; Title: string }): ItemPlace {
  return { moduleId: module.ModuleId, moduleTitle: module.Title, topicId: null, topicTitle: null, itemType: 'module', itemId: module.ModuleId, itemTitle: module.Title };
}

export function topicPlace(module: { ModuleId: number; Title: string }, topic: { TopicId: number; Title: string }): ItemPlace {
  return { moduleId: module.ModuleId, moduleTitle: module.Title, topicId: topic.TopicId, topicTitle: topic.Title, itemType: 'topic', itemId: topic.TopicId, itemTitle: topic.Title };
}

/** An item of its own (an assignment, an announcement...), inside a module's content or course-wide. */
export function itemPlace(itemType: ItemType, itemId: number | null, itemTitle: string, within?: ItemPlace): ItemPlace {
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

/** A question of a quiz, by its number in the quiz: its texts are checked in the quiz's place. */
export function questionPlace(quiz: ItemPlace, number: number): ItemPlace {
  return { ...quiz, question: number };
}
