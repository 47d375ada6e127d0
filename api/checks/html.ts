// One parse of a topic's HTML, shared by the content, link and accessibility checks: the visible
// text, every link and embedded resource (resolved against the topic's address), images and videos.
import { DomUtils, parseDocument } from 'htmlparser2';

type Document = ReturnType<typeof parseDocument>;
export type HtmlElement = ReturnType<typeof DomUtils.getElementsByTagName>[number];

export interface LinkOccurrence {
  /** The address as written in the page. */
  raw: string;
  /** Absolute http(s) address without its #fragment, or null when it is not a valid address. */
  url: string | null;
  /** The element it came from: a, img, iframe, video... */
  element: string;
  /** Loaded by the page itself (image, frame, media, style) rather than followed by a click. */
  embedded: boolean;
  /** The link text or image alt the author sees in the editor, when there is one. */
  text?: string;
  /** How many times the address occurs in the item, when more than once. */
  count?: number;
}

export interface ParsedTopic {
  document: Document;
  /** Visible text, whitespace collapsed. */
  text: string;
  /** Each distinct address once (the first place it appears). */
  links: LinkOccurrence[];
  images: HtmlElement[];
  videos: HtmlElement[];
  anchors: HtmlElement[];
  /** Images, media, frames or objects: a page with these is not empty even without text. */
  hasMedia: boolean;
}

/** domutils 4 no longer exports domhandler's isTag; this is the same test. */
export function isElement(node: unknown): node is HtmlElement {
  return typeof node === 'object' && node !== null && 'attribs' in node && 'name' in node && 'children' in node;
}

const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);
const SKIPPED_SCHEMES = /^(mailto|tel|sms|javascript|data|blob|about|ftp|file|callto|skype|news|irc):/i;
// Brightspace fills these in when it shows a page; the org unit one is known, the others are not.
const REPLACE_STRING = /\{[A-Za-z]+\}/;

const SOURCES: [tag: string, attribute: string, embedded: boolean][] = [
  ['a', 'href', false],
  ['area', 'href', false],
  ['img', 'src', true],
  ['img', 'srcset', true],
  ['input', 'src', true],
  ['source', 'src', true],
  ['source', 'srcset', true],
  ['video', 'src', true],
  ['video', 'poster', true],
  ['audio', 'src', true],
  ['track', 'src', true],
  ['iframe', 'src', true],
  ['embed', 'src', true],
  ['object', 'data', true],
  ['link', 'href', true],
  ['script', 'src', true],
];

function visibleText(document: Document): string {
  const parts: string[] = [];
  const walk = (nodes: Document['children']) => {
    for (const node of nodes) {
      if (node.type === 'text') parts.push((node as { data: string }).data);
      else if ('children' in node && !(isElement(node) && INVISIBLE.has(node.name))) walk(node.children);
    }
  };
  walk(document.children);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

function srcsetUrls(value: string): string[] {
  return value
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url !== '');
}

/**
 * Resolves an address as a browser would for this page. Returns undefined for addresses that are
 * not checked at all (mail, phone, scripts, in-page anchors, unknown replace strings).
 */
export function resolveAddress(raw: string, base: URL, orgUnitId: number): string | null | undefined {
  let value = raw.trim();
  if (value === '' || value.startsWith('#') || SKIPPED_SCHEMES.test(value)) return undefined;
  value = value.replace(/\{orgunitid\}/gi, String(orgUnitId));
  if (REPLACE_STRING.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return SKIPPED_SCHEMES.test(url.href) ? undefined : null;
  url.hash = '';
  return url.href;
}

/** Parses a topic. `pageUrl` is where Brightspace serves it, the base of its relative links. */
export function parseTopic(html: string, pageUrl: URL, orgUnitId: number): ParsedTopic {
  const document = parseDocument(html, { lowerCaseAttributeNames: true, lowerCaseTags: true });
  const baseElement = DomUtils.getElementsByTagName('base', document, true, 1)[0];
  let base = pageUrl;
  if (baseElement?.attribs.href) {
    try {
      base = new URL(baseElement.attribs.href, pageUrl);
    } catch {
      // A broken <base> is ignored, as browsers do.
    }
  }

  const links = new Map<string, LinkOccurrence>();
  const all = DomUtils.getElementsByTagName(() => true, document, true);
  for (const element of all) {
    for (const [tag, attribute, embedded] of SOURCES) {
      if (element.name !== tag) continue;
      const value = element.attribs[attribute];
      if (value === undefined) continue;
      if (tag === 'input' && (element.attribs.type ?? '').toLowerCase() !== 'image') continue;
      if (tag === 'link' && !/stylesheet|icon/i.test(element.attribs.rel ?? '')) continue;
      for (const raw of attribute === 'srcset' ? srcsetUrls(value) : [value]) {
        const url = resolveAddress(raw, base, orgUnitId);
        if (url === undefined) continue;
        const key = url ?? `invalid:${raw}`;
        const existing = links.get(key);
        if (existing === undefined) links.set(key, { raw, url, element: tag, embedded });
        else if (embedded && !existing.embedded) links.set(key, { ...existing, embedded: true, element: tag });
      }
    }
  }

  const byTag = (tag: string) => all.filter((element) => element.name === tag);
  const images = all.filter((element) => element.name === 'img' || (element.name === 'input' && (element.attribs.type ?? '').toLowerCase() === 'image'));
  const videos = byTag('video');
  return {
    document,
    text: visibleText(document),
    links: [...links.values()],
    images,
    videos,
    anchors: byTag('a').filter((element) => element.attribs.href !== undefined),
    hasMedia: all.some((element) => ['img', 'video', 'audio', 'iframe', 'object', 'embed', 'svg', 'canvas', 'math'].includes(element.name)),
  };
}

/** Text a screen reader would announce for an element: aria-label, else its text and image alts. */
export function accessibleText(element: HtmlElement): string {
  const label = element.attribs['aria-label'];
  if (label !== undefined && label.trim() !== '') return label.replace(/\s+/g, ' ').trim();
  const parts: string[] = [];
  const walk = (nodes: HtmlElement['children']) => {
    for (const node of nodes) {
      if (node.type === 'text') parts.push((node as { data: string }).data);
      else if (isElement(node)) {
        if (node.name === 'img' && node.attribs.alt) parts.push(node.attribs.alt);
        if (!INVISIBLE.has(node.name)) walk(node.children);
      }
    }
  };
  walk(element.children);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
