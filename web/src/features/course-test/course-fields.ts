// The five inputs of the form, their rules, and the request fields they become.
import type { TextInputRules } from '@/components/text-input/validate-text-input';
import type { MessageId } from '@/lib/i18n/message-ids';
import { orgUnitOf } from '@contract';

export const FIELD_NAMES = ['userName', 'password', 'siteUrl', 'orgUnitId', 'clientName'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export type CourseFields = Record<FieldName, string>;

export interface FieldDefinition extends Omit<TextInputRules, 'label' | 'patternFailureText'> {
  name: FieldName;
  /** The input's id in the page, also the error summary's link target. */
  id: string;
  labelId: MessageId;
  /** A hint under the field. */
  helpId?: MessageId;
  patternFailureId?: MessageId;
  /** Addresses and numbers read left to right, in a right-to-left page too. */
  leftToRight?: boolean;
  autoComplete: string;
  inputMode?: 'numeric';
  spellCheck?: boolean;
}

export const FIELDS: readonly FieldDefinition[] = [
  { name: 'userName', id: 'ctpo-user-name', labelId: 'form.username.label', type: 'text', required: true, autoComplete: 'username', spellCheck: false },
  { name: 'password', id: 'ctpo-password', labelId: 'form.password.label', type: 'password', required: true, autoComplete: 'current-password' },
  { name: 'siteUrl', id: 'ctpo-site-url', labelId: 'form.siteUrl.label', helpId: 'form.siteUrl.help', type: 'url', required: true, autoComplete: 'url', spellCheck: false, leftToRight: true },
  {
    name: 'orgUnitId',
    id: 'ctpo-org-unit-id',
    labelId: 'form.orgUnitId.label',
    helpId: 'form.orgUnitId.help',
    type: 'text',
    required: true,
    pattern: '[0-9]+',
    patternFailureId: 'form.orgUnitId.patternFailure',
    inputMode: 'numeric',
    autoComplete: 'off',
    leftToRight: true,
  },
  { name: 'clientName', id: 'ctpo-client-name', labelId: 'form.client.label', type: 'text', required: true, autoComplete: 'organization' },
];

export const EMPTY_FIELDS: CourseFields = { userName: '', password: '', siteUrl: '', orgUnitId: '', clientName: '' };

/** The values as compared for "already loaded" and "unsaved": surrounding spaces do not count. */
export function trimmedFields(fields: CourseFields): CourseFields {
  return {
    userName: fields.userName.trim(),
    password: fields.password.trim(),
    siteUrl: fields.siteUrl.trim(),
    orgUnitId: fields.orgUnitId.trim(),
    clientName: fields.clientName.trim(),
  };
}

export function sameFields(a: CourseFields, b: CourseFields): boolean {
  return FIELD_NAMES.every((name) => a[name] === b[name]);
}

/** A course as its address in Brightspace names it: the site and the org unit. */
export interface CourseAddress {
  siteUrl: string;
  orgUnitId: string;
}

/**
 * The site and org unit of a course's address (…/d2l/home/6606, …/d2l/le/content/6606/…, or any
 * address with ?ou=6606), as pasted into the form; null for anything else, a bare site included.
 */
export function courseAddress(text: string): CourseAddress | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const orgUnitId = orgUnitOf(url, new URL(url.origin));
  return orgUnitId === null || orgUnitId <= 0 ? null : { siteUrl: url.origin, orgUnitId: String(orgUnitId) };
}
