// Turns catalogue text into parsed messages the app can always render. A translation or a runtime
// override that does not parse, or asks for a value the app never passes, would otherwise make
// react-intl show the message id; such a message falls back to English. A tag outside the rich-text
// set, or one the English message does not have, is dropped and its text kept as plain text.
import { TYPE, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/** The seed's rich-text tags; every other tag in a message is rendered as plain text. */
export const RICH_TEXT_TAGS = ['b', 'br', 'em', 'i', 'p', 'strong', 'button', 'link', 'tooltip-help'] as const;
export type RichTextTag = (typeof RICH_TEXT_TAGS)[number];

export type ParsedMessages = Record<string, MessageFormatElement[]>;

export interface MessageShape {
  /** Placeholders as "name:type" (email:argument, count:plural, total:number...). */
  placeholders: string[];
  tags: string[];
}

const TYPE_NAMES: Partial<Record<TYPE, string>> = {
  [TYPE.argument]: 'argument',
  [TYPE.number]: 'number',
  [TYPE.date]: 'date',
  [TYPE.time]: 'time',
  [TYPE.select]: 'select',
  [TYPE.plural]: 'plural',
};

function collectShape(elements: readonly MessageFormatElement[], placeholders: Set<string>, tags: Set<string>): void {
  for (const element of elements) {
    if (element.type === TYPE.tag) {
      tags.add(element.value);
      collectShape(element.children, placeholders, tags);
      continue;
    }
    const typeName = element.type === TYPE.plural && element.pluralType === 'ordinal' ? 'selectordinal' : TYPE_NAMES[element.type];
    if (typeName && 'value' in element) placeholders.add(`${element.value}:${typeName}`);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) collectShape(option.value, placeholders, tags);
    }
  }
}

export function messageShape(elements: readonly MessageFormatElement[]): MessageShape {
  const placeholders = new Set<string>();
  const tags = new Set<string>();
  collectShape(elements, placeholders, tags);
  return { placeholders: [...placeholders].sort(), tags: [...tags].sort() };
}

export function isRichTextTag(name: string): name is RichTextTag {
  return (RICH_TEXT_TAGS as readonly string[]).includes(name);
}

/** Replaces every tag not in `keep` by its content, inside plural and select branches too. */
export function flattenTags(elements: readonly MessageFormatElement[], keep: (tag: string) => boolean): MessageFormatElement[] {
  return elements.flatMap((element): MessageFormatElement[] => {
    if (element.type === TYPE.tag) {
      const children = flattenTags(element.children, keep);
      return keep(element.value) ? [{ ...element, children }] : children;
    }
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([key, option]) => [key, { ...option, value: flattenTags(option.value, keep) }]),
      );
      return [{ ...element, options }];
    }
    return [element];
  });
}

function tryParse(text: string): MessageFormatElement[] | undefined {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Parses `messages` over the English base. Each id of the English catalogue gets the locale's text
 * when that parses and needs no value English does not have; otherwise English. Ids English does
 * not have are ignored.
 */
export function guardMessages<Id extends string>(
  english: Readonly<Record<Id, string>>,
  messages: Readonly<Record<string, string>>,
): Record<Id, MessageFormatElement[]> {
  const parsed: ParsedMessages = {};
  for (const [id, englishText] of Object.entries<string>(english)) {
    const base = flattenTags(tryParse(englishText) ?? [{ type: TYPE.literal, value: englishText }], isRichTextTag);
    const text = messages[id];
    if (text === undefined || text === englishText) {
      parsed[id] = base;
      continue;
    }
    const baseShape = messageShape(base);
    const candidate = tryParse(text);
    if (!candidate) {
      console.warn(`CTPO: the message "${id}" does not parse; English is shown instead.`);
      parsed[id] = base;
      continue;
    }
    const guarded = flattenTags(candidate, (tag) => baseShape.tags.includes(tag));
    const unknown = messageShape(guarded).placeholders.filter((placeholder) => !baseShape.placeholders.includes(placeholder));
    if (unknown.length > 0) {
      console.warn(`CTPO: the message "${id}" uses ${unknown.join(', ')}, which English does not; English is shown instead.`);
      parsed[id] = base;
      continue;
    }
    parsed[id] = guarded;
  }
  // Every English id was filled in above.
  return parsed as Record<Id, MessageFormatElement[]>;
}
