// Accessibility checks. axe-core's rules run on each HTML item (a11y-runner.ts: in headless Chromium,
// or in jsdom without a browser) and come back as `a11y.<rule id>`: what fails as errors or warnings,
// what axe could not decide as "Needs review" notes. Three checks of our own cover what axe does not
// judge: alt text that is a file name, generic link text, and videos without captions.
import { msg } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding, Severity } from './finding.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import type { AxeOutcome, AxeRuleResult } from '../a11y/axe-rules.ts';
import { accessibleText, isElement, resolveAddress, type HtmlElement, type ParsedTopic } from '../extract/html.ts';

export function severityOfImpact(impact: string | null): Severity {
  if (impact === 'critical' || impact === 'serious') return 'error';
  if (impact === 'moderate') return 'warning';
  return 'info';
}

function axeFinding(result: AxeRuleResult, place: ItemPlace, pageUrl: string | null, review: boolean): Finding {
  const example = result.nodes[0];
  const help = result.help.replace(/\.$/, '');
  const why = example?.why?.trim().replace(/\.$/, '');
  const found: Finding = {
    check: `a11y.${result.id}`,
    severity: review ? 'info' : severityOfImpact(result.impact),
    ...place,
    url: pageUrl,
    message: review
      ? why
        ? msg('finding.a11y.review', { help, count: result.count, why })
        : msg('finding.a11y.review-plain', { help, count: result.count })
      : msg('finding.a11y.axe', { help, count: result.count }),
    count: result.count,
    // A rule can both fail and leave questions on one page: two findings, two identities.
    subject: review ? `${result.id}:review` : result.id,
  };
  if (example !== undefined) {
    found.element = example.html;
    found.selector = example.selector;
  }
  if (result.helpUrl) found.helpUrl = result.helpUrl;
  if (review) found.review = true;
  return found;
}

/** axe's failures as findings, and what it could not decide as "Needs review" notes. */
export function axeFindings(outcome: Pick<AxeOutcome, 'violations' | 'incomplete'>, place: ItemPlace, pageUrl: string | null): Finding[] {
  return [
    ...outcome.violations.map((result) => axeFinding(result, place, pageUrl, false)),
    ...outcome.incomplete.map((result) => axeFinding(result, place, pageUrl, true)),
  ];
}

const IMAGE_FILE = /\.(png|jpe?g|gif|svg|webp|bmp|tiff?|heic|avif)$/i;
const CAMERA_NAME = /^(img|dsc|dscn|pxl|screenshot|screen shot|image|photo)[\s_-]?\d[\w\s-]*$/i;

function fileStem(src: string | undefined): string | null {
  if (!src) return null;
  const last = src.split(/[?#]/)[0]?.split('/').pop() ?? '';
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // keep it as written
  }
  return decoded === '' ? null : decoded.replace(IMAGE_FILE, '').toLowerCase();
}

/**
 * An image that is a control: an image button, or the whole content of a link or button. Its alt
 * text is the control's label, and a file named for what the button says ("submit.png", alt
 * "Submit") is named after that label, not the other way round.
 */
function isControlImage(image: HtmlElement): boolean {
  if (image.name === 'input') return true;
  let parent = image.parent;
  for (let depth = 0; depth < 3 && parent !== null && isElement(parent); depth++, parent = parent.parent) {
    if ((parent.name === 'a' && parent.attribs.href !== undefined) || parent.name === 'button') {
      return accessibleText(parent) === (image.attribs.alt ?? '').replace(/\s+/g, ' ').trim();
    }
  }
  return false;
}

/** Alt text in words (letters and spaces): a label, never a file or camera name, which keep their dots, digits or joins. */
const WORDS = /^[\p{L}\p{M}'’]+( [\p{L}\p{M}'’]+)*$/u;

/** True when an image's alt text is its file name (or looks like one) rather than a description. */
export function isFileNameAlt(image: HtmlElement): boolean {
  const alt = image.attribs.alt?.trim() ?? '';
  if (WORDS.test(alt) && isControlImage(image)) return false;
  return isFileNameText(image.attribs.alt, image.attribs.src);
}

/** True when a text given as alternative text is a file name (or a camera's one), optionally the image's own. */
export function isFileNameText(text: string | undefined, src?: string): boolean {
  const alt = text?.trim();
  if (!alt) return false;
  if (IMAGE_FILE.test(alt) && !/\s/.test(alt)) return true;
  if (CAMERA_NAME.test(alt)) return true;
  const stem = fileStem(src);
  return stem !== null && stem.length > 2 && alt.toLowerCase().replace(IMAGE_FILE, '') === stem;
}

const GENERIC_LINK_TEXT = new Set([
  'click here', 'click', 'here', 'click this', 'click this link', 'this link', 'link', 'this', 'more', 'read more',
  'learn more', 'more info', 'more information', 'go', 'go here', 'details', 'see here', 'continue', 'this page',
]);

export function isGenericLinkText(anchor: HtmlElement): boolean {
  const text = accessibleText(anchor).toLowerCase().replace(/[.:!?…»›>\-\s]+$/u, '').replace(/^[«‹<\s]+/u, '').trim();
  return GENERIC_LINK_TEXT.has(text);
}

function hasCaptions(video: HtmlElement): boolean {
  return video.children.some(
    (child) => isElement(child) && child.name === 'track' && ['captions', 'subtitles', ''].includes((child.attribs.kind ?? '').toLowerCase()) && Boolean(child.attribs.src),
  );
}

export function checkAccessibility(topic: ParsedTopic, place: ItemPlace, pageUrl: URL, orgUnitId: number): Finding[] {
  // The images, links and videos concerned are named by their address (url) and their HTML. One
  // finding stands for every such image (or link) of the item, so its subject is the kind of element,
  // not the first one found: fixing one of three, or adding a fourth, leaves it the same finding.
  const findings: Finding[] = [];
  const fileNames = topic.images.filter(isFileNameAlt);
  if (fileNames.length > 0) {
    const first = fileNames[0]!.attribs.alt!.trim();
    findings.push(finding('a11y.alt-filename', place, resolveAddress(fileNames[0]!.attribs.src ?? '', pageUrl, orgUnitId) ?? null,
      msg('finding.a11y.alt-filename', { count: fileNames.length, alt: first }), { count: fileNames.length, linkText: first, element: 'img alt', subject: 'img alt' }));
  }
  const generic = topic.anchors.filter(isGenericLinkText);
  if (generic.length > 0) {
    const first = accessibleText(generic[0]!);
    findings.push(finding('a11y.link-text-generic', place, resolveAddress(generic[0]!.attribs.href ?? '', pageUrl, orgUnitId) ?? null,
      msg('finding.a11y.link-text-generic', { count: generic.length, text: first }), { count: generic.length, linkText: first, element: 'a', subject: 'a text' }));
  }
  for (const video of topic.videos) {
    if (hasCaptions(video)) continue;
    const sourceElement = video.children.find((child): child is HtmlElement => isElement(child) && child.name === 'source' && Boolean(child.attribs.src));
    const source = video.attribs.src ?? sourceElement?.attribs.src ?? '';
    const address = resolveAddress(source, pageUrl, orgUnitId) ?? null;
    findings.push(finding('media.no-captions', place, address, msg('finding.media.no-captions'), { element: 'video', subject: address ?? source }));
  }
  return findings;
}
