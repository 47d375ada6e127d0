// Reading Valence JSON the forgiving way D2L asks clients to ("be forgiving about what they
// receive"): every field is checked before use, a field of the wrong type reads as absent, and
// unknown fields are kept on the record as they came. Readers build on these helpers only.
import { isRecord, type JsonObject } from '../json.ts';

// The readers of this folder take isRecord from here with the field helpers; it is api/json.ts's.
export { isRecord };
export type RawRecord = JsonObject;

/** A D2LID: a non-negative whole number, sent as a number or (in a few blocks) as a string. */
export function idField(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return null;
}

export function textField(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function boolField(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

export function numberField(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** A UTCDateTime; with or without fractional seconds. Anything unparseable reads as no date. */
export function dateField(value: unknown): Date | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The HTML of a RichText, whatever form it arrives in: `{Text, Html}` (read shape), `{Content,
 * Type}` (the write shape, which some category descriptions come back in), or a plain string.
 * When only the plain text is there, it is escaped so it stays text. Empty when there is nothing.
 */
export function richTextHtml(value: unknown): string {
  if (typeof value === 'string') return escapeText(value);
  if (!isRecord(value)) return '';
  if (typeof value.Html === 'string' && value.Html.trim() !== '') return value.Html;
  if (typeof value.Content === 'string') {
    const type = value.Type;
    return type === 'Html' || type === 2 ? value.Content : escapeText(value.Content);
  }
  if (typeof value.Text === 'string') return escapeText(value.Text);
  return '';
}

/** A quiz's RichText blocks are one level deeper: `{ Text: { Text, Html }, IsDisplayed }`. */
export function quizRichTextHtml(value: unknown): { html: string; displayed: boolean } {
  if (!isRecord(value)) return { html: '', displayed: false };
  const inner = isRecord(value.Text) ? value.Text : value;
  return { html: richTextHtml(inner), displayed: value.IsDisplayed !== false };
}

/** True when the HTML has something a reader sees (text, or an image, media or frame). */
export function hasContent(html: string): boolean {
  if (/<(img|video|audio|iframe|object|embed|svg)\b/i.test(html)) return true;
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|[\s\u00a0\u200b]/g, '') !== '';
}

/** The `ActivityId` tail, which is what quicklinks carry as their `rcode`. */
export function activityCode(activityId: string | null): string | null {
  if (activityId === null) return null;
  const tail = activityId.split('/').filter((part) => part !== '').pop();
  return tail === undefined || tail === '' ? null : tail;
}
