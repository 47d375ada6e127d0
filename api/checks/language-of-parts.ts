// The language of parts of a page (WCAG 3.1.2): text written in another language than the one it is
// marked as (the page's lang, or an inner element's), so a screen reader reads it with the wrong
// voice and rules. The language is told by franc (trigram statistics over 187 languages), which is
// only sure of longer text: a text shorter than MIN_CHARS or MIN_WORDS is never judged (names, a
// short quote, a term), and a text is flagged only when the marked language scores below
// DECLARED_SCORE_FLOOR of the best (franc scores related languages close together, so a second
// place close behind is no finding).
import { francAll } from 'franc';
import { data as francData } from 'franc/data.js';
import { iso6393To1 } from 'iso-639-3';
import type { ItemPlace } from '../brightspace/places.ts';
import { msg } from '../i18n/messages.ts';
import type { TextFact } from '../a11y/page-checks/page-facts.ts';
import type { Finding } from './finding.ts';
import { pageFinding } from './page-findings.ts';

export const MIN_CHARS = 40;
export const MIN_WORDS = 6;
/** franc's score of the marked language, as a share of the best language's, at or above which the text counts as written in it. */
export const DECLARED_SCORE_FLOOR = 0.8;

/**
 * franc names individual languages where BCP 47 uses the macrolanguage a page's lang names
 * (ISO 639-3 individual -> the primary tag): Mandarin is `zh`, Standard Arabic `ar`, Bokmål `no`.
 */
const MACROLANGUAGE: Record<string, string> = {
  cmn: 'zh', yue: 'zh', arb: 'ar', pes: 'fa', prs: 'fa', zlm: 'ms', zsm: 'ms', nob: 'no', nno: 'no', ekk: 'et', lvs: 'lv', uzn: 'uz',
  swh: 'sw', azj: 'az', khk: 'mn', ydd: 'yi', plt: 'mg', ckb: 'ku', kmr: 'ku', als: 'sq', npi: 'ne', pbu: 'ps', quy: 'qu', quz: 'qu',
  ayr: 'ay', gaz: 'om', knc: 'kr', fuv: 'ff', fuf: 'ff', hms: 'hmn', hnj: 'hmn', tzm: 'ber',
};
/** Primary tags that name one language between them. */
const SAME_AS: Record<string, string> = { nb: 'no', nn: 'no', iw: 'he', in: 'id', ji: 'yi', tl: 'fil' };

/** The BCP 47 primary language tag of one of franc's ISO 639-3 codes. */
export function primaryTagOf(iso6393: string): string {
  return MACROLANGUAGE[iso6393] ?? (iso6393To1 as Record<string, string | undefined>)[iso6393] ?? iso6393;
}

/** The primary language of a lang attribute (`en-GB` -> `en`), one name per language. */
export function primaryOf(lang: string): string {
  const primary = lang.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return SAME_AS[primary] ?? primary;
}

/** franc's codes by the primary tag they map to. */
const FRANC_CODES = new Map<string, string[]>();
for (const code of Object.values(francData).flatMap((script) => Object.keys(script))) {
  const primary = primaryOf(primaryTagOf(code));
  FRANC_CODES.set(primary, [...(FRANC_CODES.get(primary) ?? []), code]);
}

/** The language a text is written in when franc is sure enough that it is not the one marked; null otherwise. */
export function otherLanguageOf(text: string, marked: string): string | null {
  const declared = primaryOf(marked);
  const codes = FRANC_CODES.get(declared);
  // A language franc does not know cannot be told apart from the others.
  if (codes === undefined) return null;
  const words = text.match(/\p{L}[\p{L}\p{M}'’-]*/gu) ?? [];
  const letters = words.join('').length;
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(text);
  if (letters < MIN_CHARS * (cjk ? 0.25 : 1) || (!cjk && words.length < MIN_WORDS)) return null;
  // Scots scores close to English on any English text, and courses are not written in it.
  const scores = francAll(text, { minLength: 1, ignore: ['sco'] });
  const [best] = scores[0] ?? ['und', 0];
  if (best === 'und') return null;
  const detected = primaryOf(primaryTagOf(best));
  if (detected === declared) return null;
  const declaredScore = Math.max(0, ...scores.filter(([code]) => codes.includes(code)).map(([, score]) => score));
  return declaredScore >= DECLARED_SCORE_FLOOR ? null : detected;
}

/**
 * Texts whose language is not the one they are marked as. In a fragment (a description) the page's
 * lang is CTPO's own wrapper's, not the author's: only its parts marked with a lang of their own are
 * judged there.
 */
export function languageOfPartsFindings(texts: readonly TextFact[], pageLang: string, whole: boolean, place: ItemPlace, url: string | null): Finding[] {
  const wrong: { text: TextFact; detected: string }[] = [];
  for (const text of texts) {
    if (text.lang === '' || (!whole && primaryOf(text.lang) === primaryOf(pageLang))) continue;
    const detected = otherLanguageOf(text.text, text.lang);
    if (detected !== null) wrong.push({ text, detected });
  }
  if (wrong.length === 0) return [];
  const { text, detected } = wrong[0]!;
  const quote = text.text.length > 60 ? `${text.text.slice(0, 57)}...` : text.text;
  return [pageFinding('a11y.language-of-parts', place, url, msg('finding.a11y.language-of-parts', { count: wrong.length, text: quote, detected, marked: text.lang }),
    wrong.map((entry) => entry.text))];
}
