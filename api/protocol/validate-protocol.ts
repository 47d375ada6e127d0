// A protocol checked before it is saved or used (issue: "refused when the protocol is saved, with the
// id named"): its shape (protocol-schema.ts), then what the shape cannot say: every check id exists
// in the catalogue (axe-core's rules included), item ids are unique, manual items name no checks and
// automated ones some, no hidden characters, within the limits. Every problem is named at once, each
// saying what to change, in an AppError `invalid_input`; a refused protocol is never stored.
import axe from 'axe-core';
import { AppError } from '../errors.ts';
import { joinMessages, msg, type Message } from '../i18n/messages.ts';
import { CHECKS } from '../checks/catalogue.ts';
import { CONTROL_CHARACTER, hiddenCharacterIn } from '../engine/run-input-rules.ts';
import { PROTOCOL_LIMITS, PROTOCOL_SEVERITIES, protocolSchema, type Protocol } from './protocol-schema.ts';

/** Every check id a finding can carry: the catalogue's, and `a11y.<rule>` for each axe-core rule. */
export const KNOWN_CHECKS: readonly string[] = [...Object.keys(CHECKS), ...axe.getRules().map((rule) => `a11y.${rule.ruleId}`)].sort();
const known = new Set(KNOWN_CHECKS);

/** A check id or a family (`a11y.*`, `doc.pdf-*`) that names at least one check that exists. */
export function isKnownCheckPattern(pattern: string): boolean {
  if (!pattern.endsWith('*')) return known.has(pattern);
  const prefix = pattern.slice(0, -1);
  return prefix !== '' && KNOWN_CHECKS.some((check) => check.startsWith(prefix));
}

/** At most this many problems are named: a file of another kind would otherwise give hundreds. */
const MAX_PROBLEMS = 20;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How a person finds an item: its id when it has one, else its place in the list. */
function itemName(item: unknown, index: number): string {
  return isRecord(item) && typeof item.id === 'string' && item.id.trim() !== '' && item.id.length <= PROTOCOL_LIMITS.itemId ? `"${item.id}"` : `#${index + 1}`;
}

/** The first control or invisible character in a text, as U+XXXX. */
function hiddenIn(text: string): string | undefined {
  const control = CONTROL_CHARACTER.exec(text)?.[0];
  if (control !== undefined) return `U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return hiddenCharacterIn(text);
}

function shapeProblems(value: unknown): Message[] {
  if (!isRecord(value)) return [msg('error.protocol.not-protocol')];
  const problems: Message[] = [];
  const name = value.name;
  if (typeof name !== 'string' || name.trim() === '' || name.trim().length > PROTOCOL_LIMITS.name) problems.push(msg('error.protocol.name', { max: PROTOCOL_LIMITS.name }));
  if (typeof value.version !== 'number' || !Number.isInteger(value.version) || value.version < 1) problems.push(msg('error.protocol.version'));
  const items = value.items;
  if (!Array.isArray(items) || items.length === 0) {
    problems.push(msg('error.protocol.items'));
    return problems;
  }
  if (items.length > PROTOCOL_LIMITS.items) {
    problems.push(msg('error.protocol.too-many-items', { count: items.length, max: PROTOCOL_LIMITS.items }));
    return problems;
  }
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const named = itemName(item, index);
    if (!isRecord(item)) {
      problems.push(msg('error.protocol.item-id', { item: named, max: PROTOCOL_LIMITS.itemId }));
      return;
    }
    const id = item.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > PROTOCOL_LIMITS.itemId || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) {
      problems.push(msg('error.protocol.item-id', { item: named, max: PROTOCOL_LIMITS.itemId }));
    } else if (seen.has(id)) {
      problems.push(msg('error.protocol.duplicate-id', { item: `"${id}"` }));
    } else {
      seen.add(id);
    }
    const title = item.title;
    if (typeof title !== 'string' || title.trim() === '' || title.trim().length > PROTOCOL_LIMITS.title) problems.push(msg('error.protocol.item-title', { item: named, max: PROTOCOL_LIMITS.title }));
    const manual = item.manual;
    const weight = item.weight;
    if (weight !== undefined && (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0)) problems.push(msg('error.protocol.weight', { item: named }));
    const allow = item.allow;
    if (allow !== undefined && (typeof allow !== 'number' || !Number.isInteger(allow) || allow < 0)) problems.push(msg('error.protocol.allow', { item: named }));
    if (item.minSeverity !== undefined && !(PROTOCOL_SEVERITIES as readonly unknown[]).includes(item.minSeverity)) problems.push(msg('error.protocol.min-severity', { item: named }));
    const checks = item.checks;
    if (manual === true) {
      if (checks !== undefined && !(Array.isArray(checks) && checks.length === 0)) problems.push(msg('error.protocol.manual-checks', { item: named }));
    } else if (!Array.isArray(checks) || checks.length === 0 || checks.length > PROTOCOL_LIMITS.checksPerItem || !checks.every((check) => typeof check === 'string')) {
      problems.push(msg('error.protocol.item-checks', { item: named, max: PROTOCOL_LIMITS.checksPerItem }));
    } else {
      for (const check of checks as string[]) {
        if (!isKnownCheckPattern(check)) problems.push(msg('error.protocol.unknown-check', { item: named, check: `"${check.slice(0, PROTOCOL_LIMITS.checkId)}"` }));
      }
    }
    for (const [field, text] of [['id', id], ['title', title]] as const) {
      const hidden = typeof text === 'string' ? hiddenIn(text) : undefined;
      if (hidden !== undefined) problems.push(msg('error.protocol.hidden-character', { item: named, field, codePoint: hidden }));
    }
  });
  if (typeof name === 'string') {
    const hidden = hiddenIn(name);
    if (hidden !== undefined) problems.unshift(msg('error.protocol.hidden-character', { item: 'protocol', field: 'name', codePoint: hidden }));
  }
  return problems;
}

/**
 * The protocol in `value` (parsed JSON), trimmed and typed; throws AppError `invalid_input` naming
 * every problem (at most 20) otherwise. `bytes`, when the caller has the text, is its UTF-8 size.
 */
export function validateProtocol(value: unknown, bytes?: number): Protocol {
  const size = bytes ?? Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (size > PROTOCOL_LIMITS.bytes) throw new AppError('invalid_input', msg('error.protocol.too-large', { max: PROTOCOL_LIMITS.bytes / 1024 }));
  const problems = shapeProblems(value);
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push(msg('error.protocol.more-problems', { count: problems.length - MAX_PROBLEMS }));
    throw new AppError('invalid_input', joinMessages(shown));
  }
  // The schema agrees with the checks above; it trims and drops what a protocol does not hold.
  const parsed = protocolSchema.safeParse(value);
  if (!parsed.success) throw new AppError('invalid_input', msg('error.protocol.not-protocol'));
  const protocol = parsed.data;
  return {
    name: protocol.name,
    version: protocol.version,
    items: protocol.items.map((item) =>
      item.manual === true
        ? { id: item.id, title: item.title, manual: true, ...(item.weight === undefined ? {} : { weight: item.weight }) }
        : {
            id: item.id,
            title: item.title,
            checks: item.checks ?? [],
            ...(item.weight === undefined ? {} : { weight: item.weight }),
            ...(item.allow === undefined ? {} : { allow: item.allow }),
            ...(item.minSeverity === undefined ? {} : { minSeverity: item.minSeverity }),
          },
    ),
  };
}

/** A protocol from JSON text (a file, an import): refused with a message when it is not JSON. */
export function parseProtocolText(text: string): Protocol {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > PROTOCOL_LIMITS.bytes) throw new AppError('invalid_input', msg('error.protocol.too-large', { max: PROTOCOL_LIMITS.bytes / 1024 }));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('invalid_input', msg('error.protocol.not-protocol'));
  }
  return validateProtocol(value, bytes);
}
