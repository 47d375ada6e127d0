// Whether a rendered page's links say where they go: the same text for different places, links
// that go nowhere, links that open a new window without saying so, and an image link beside a text
// link to the same place (read out twice). Judged from the links' accessible names and resolved
// addresses (a11y/page-checks/probe.ts).
import type { ItemPlace } from '../brightspace/places.ts';
import { msg } from '../i18n/messages.ts';
import type { LinkFact } from '../a11y/page-checks/page-facts.ts';
import type { Finding } from './finding.ts';
import { pageFinding } from './page-findings.ts';

/** A name as a listener hears it: case, spacing and closing punctuation do not make two names. */
const normalName = (name: string) => name.toLowerCase().replace(/\s+/g, ' ').replace(/[\s.:;,!?…»›>)-]+$/u, '').trim();

/** Links that do not go anywhere: `href="#"` and `javascript:` addresses. */
export function goesNowhere(link: Pick<LinkFact, 'rawHref'>): boolean {
  // Browsers drop tabs, line breaks and other control characters from an address, so `java\tscript:` runs as script.
  const href = [...link.rawHref.toLowerCase()].filter((character) => character.charCodeAt(0) > 0x20).join('');
  return href === '#' || href.startsWith('javascript:');
}

/** A destination as a place: the same address with or without a closing slash is one place. */
const destination = (href: string) => href.replace(/\/(?=($|[?#]))/, '');

/**
 * Words that say a link opens a new window or tab, in the languages courses are written in; an
 * icon's alt text counts, as it is part of the link's name.
 */
const NEW_WINDOW = new RegExp(
  [
    'new (window|tab|browser)', 'opens? in', 'external', 'nouvel(le)? (fenêtre|onglet|page)', 'nueva (ventana|pestaña)', 'neue[nms]? (fenster|tab)',
    'nieuw(e)? (venster|tabblad)', 'nuova (finestra|scheda)', 'nova (janela|aba|guia)', 'ny(tt)? (fönster|vindue|flik|fane)', 'yeni (pencere|sekme)',
    'ffenestr newydd', '新しい(ウィンドウ|タブ)', '新(窗口|視窗|视窗|标签|標籤|分頁)', '새 (창|탭)', 'نافذة جديدة', 'नई (विंडो|टैब)', 'pukaaniani hou', 'matapihi hou',
  ].join('|'),
  'iu',
);

const OPENS_NEW_WINDOW = (target: string) => target !== '' && !['_self', '_parent', '_top'].includes(target);

export function linkPurposeFindings(links: readonly LinkFact[], place: ItemPlace, url: string | null): Finding[] {
  const findings: Finding[] = [];
  const real = links.filter((link) => link.href !== '' && !goesNowhere(link));

  // The same name for different places: a student who lists the links cannot tell them apart.
  const byName = new Map<string, LinkFact[]>();
  for (const link of real) {
    const name = normalName(link.name);
    if (name === '') continue;
    byName.set(name, [...(byName.get(name) ?? []), link]);
  }
  const ambiguous = [...byName.values()].filter((group) => new Set(group.map((link) => destination(link.href))).size > 1);
  if (ambiguous.length > 0) {
    const first = ambiguous[0]!;
    const places = new Set(first.map((link) => destination(link.href))).size;
    findings.push(pageFinding('a11y.link-same-text', place, url, msg('finding.a11y.link-same-text', { count: ambiguous.length, text: first[0]!.name, places }),
      ambiguous.map((group) => group[0]!), { linkText: first[0]!.name }));
  }

  const nowhere = links.filter((link) => goesNowhere(link) && link.role !== 'button');
  if (nowhere.length > 0) {
    findings.push(pageFinding('a11y.link-nowhere', place, url, msg('finding.a11y.link-nowhere', { count: nowhere.length, text: nowhere[0]!.name, href: nowhere[0]!.rawHref.trim().slice(0, 40) }),
      nowhere, { linkText: nowhere[0]!.name }));
  }

  const unannounced = real.filter((link) => OPENS_NEW_WINDOW(link.target) && !NEW_WINDOW.test(`${link.name} ${link.description}`));
  if (unannounced.length > 0) {
    findings.push(pageFinding('a11y.link-new-window', place, unannounced[0]!.href, msg('finding.a11y.link-new-window', { count: unannounced.length, text: unannounced[0]!.name }),
      unannounced, { linkText: unannounced[0]!.name }));
  }

  // An image link and a text link side by side to the same place: one link, read out twice.
  const pairs: LinkFact[] = [];
  for (let index = 1; index < links.length; index++) {
    const [before, link] = [links[index - 1]!, links[index]!];
    if (!link.followsLink || goesNowhere(link) || link.href === '' || destination(link.href) !== destination(before.href)) continue;
    if ((before.imageOnly && link.hasText) || (before.hasText && link.imageOnly)) pairs.push(before);
  }
  if (pairs.length > 0) {
    findings.push(pageFinding('a11y.link-adjacent-duplicate', place, pairs[0]!.href, msg('finding.a11y.link-adjacent-duplicate', { count: pairs.length }), pairs));
  }
  return findings;
}
