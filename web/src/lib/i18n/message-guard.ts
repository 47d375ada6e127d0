// Turns catalogue text into parsed messages the app can always render. A translation or a runtime
// override that does not parse, or asks for a value the app never passes, would otherwise make
// react-intl show the message id; such a message gives way to the next in line (an override to the
// built-in translation, a translation to English). A tag outside the rich-text set, or one the
// English message does not have, is dropped and its text kept as plain text.
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

/** The message as it may be shown, or why it may not: it does not parse, or needs an unknown value. */
function guardMessage(text: string, base: MessageFormatElement[]): { ok: true; message: MessageFormatElement[] } | { ok: false; why: string } {
  const candidate = tryParse(text);
  if (!candidate) return { ok: false, why: 'does not parse' };
  const baseShape = messageShape(base);
  const guarded = flattenTags(candidate, (tag) => baseShape.tags.includes(tag));
  const unknown = messageShape(guarded).placeholders.filter((placeholder) => !baseShape.placeholders.includes(placeholder));
  if (unknown.length > 0) return { ok: false, why: `uses ${unknown.join(', ')}, which English does not` };
  return { ok: true, message: guarded };
}

/**
 * Parses the messages of each id of the English catalogue: from the last layer that has a usable
 * text for it (layers are, for instance, a translation then its runtime overrides), else English.
 * A text is unusable when it does not parse or needs a value English does not have. Ids English
 * does not have are ignored.
 */
export function guardMessages<Id extends string>(
  english: Readonly<Record<Id, string>>,
  ...layers: readonly (Readonly<Record<string, string>> | undefined)[]
): Record<Id, MessageFormatElement[]> {
  const parsed: ParsedMessages = {};
  for (const [id, englishText] of Object.entries<string>(english)) {
    const base = flattenTags(tryParse(englishText) ?? [{ type: TYPE.literal, value: englishText }], isRichTextTag);
    parsed[id] = base;
    for (const layer of [...layers].reverse()) {
      const text = layer?.[id];
      if (text === undefined) continue;
      if (text === englishText) break;
      const result = guardMessage(text, base);
      if (result.ok) {
        parsed[id] = result.message;
        break;
      }
      console.warn(`CTPO: the message "${id}" ${result.why}; the next one in line is shown instead.`);
    }
  }
  // Every English id was filled in above.
  return parsed as Record<Id, MessageFormatElement[]>;
}
