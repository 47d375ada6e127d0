// The course testing protocol as JSON (docs/design.md, "The course testing protocol"): a named,
// versioned checklist of automated items (check ids a run's findings are matched against) and manual
// items a person answers. zod/mini and no Node, so the app's bundle can load it through the wire
// contract; the checks that need the check catalogue (ids that exist) are in validate-protocol.ts.
import * as z from 'zod/mini';

export const PROTOCOL_LIMITS = {
  items: 200,
  /** The protocol as JSON, in UTF-8 bytes: the API's body limit, so what the app saves it accepts. */
  bytes: 64 * 1024,
  name: 200,
  title: 300,
  itemId: 64,
  checksPerItem: 100,
  checkId: 120,
} as const;

export const PROTOCOL_SEVERITIES = ['error', 'warning', 'info'] as const;
export type ProtocolSeverity = (typeof PROTOCOL_SEVERITIES)[number];

/** An item id: what answers and links are kept by, so plain and stable. */
export const PROTOCOL_ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A check id, or a family of them with a trailing `*` (`a11y.*`). */
export const PROTOCOL_CHECK_PATTERN = /^[a-z0-9][a-z0-9.-]*\*?$/;

export const protocolItemSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(PROTOCOL_LIMITS.itemId), z.regex(PROTOCOL_ITEM_ID)),
  title: z.string().check(z.trim(), z.minLength(1), z.maxLength(PROTOCOL_LIMITS.title)),
  checks: z.optional(z.array(z.string().check(z.maxLength(PROTOCOL_LIMITS.checkId), z.regex(PROTOCOL_CHECK_PATTERN))).check(z.maxLength(PROTOCOL_LIMITS.checksPerItem))),
  manual: z.optional(z.boolean()),
  weight: z.optional(z.number().check(z.positive())),
  allow: z.optional(z.int().check(z.minimum(0))),
  minSeverity: z.optional(z.enum(PROTOCOL_SEVERITIES)),
});

export const protocolSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(PROTOCOL_LIMITS.name)),
  version: z.int().check(z.minimum(1)),
  items: z.array(protocolItemSchema).check(z.minLength(1)),
});

export type ProtocolItem = z.output<typeof protocolItemSchema>;
export type Protocol = z.output<typeof protocolSchema>;

export const MANUAL_ANSWERS = ['pass', 'fail', 'n/a'] as const;
export type ManualAnswerStatus = (typeof MANUAL_ANSWERS)[number];

/** A person's answer to a manual item, with who and when. */
export interface ProtocolAnswer {
  itemId: string;
  /** What the item said when it was answered (protocol-score.ts, itemKeyOf): a changed item asks again. */
  itemKey: string;
  status: ManualAnswerStatus;
  note?: string;
  by: string;
  at: string;
}

export const ITEM_STATUSES = ['pass', 'fail', 'needs-person', 'n/a'] as const;
export type ProtocolItemStatus = (typeof ITEM_STATUSES)[number];

/** An item's weight: 1 unless it says otherwise. */
export const weightOf = (item: ProtocolItem): number => item.weight ?? 1;
