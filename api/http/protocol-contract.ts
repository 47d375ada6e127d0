// The wire contract of /api/protocols (docs/design.md, "The QA API contract"): a user's protocols by
// client label, CTPO's default, and the sign-off of a finished run (its protocol as it stands, a
// person's answer to a manual item, ready for launch). Like contract.ts: zod/mini, no Node, so the
// app imports it for its types and reads every answer with it.
import * as z from 'zod/mini';
import { INPUT_LIMITS, clientLabelRule } from '../engine/run-input-rules.ts';
import { ITEM_STATUSES, MANUAL_ANSWERS, PROTOCOL_LIMITS, PROTOCOL_SEVERITIES, protocolSchema } from '../protocol/protocol-schema.ts';

export { ITEM_STATUSES, MANUAL_ANSWERS, PROTOCOL_LIMITS, PROTOCOL_SEVERITIES, protocolSchema };
export type { ManualAnswerStatus, Protocol, ProtocolItem, ProtocolItemStatus } from '../protocol/protocol-schema.ts';

export const PROTOCOLS_PATH = '/api/protocols';
/** GET, PUT (an answer) and POST (ready for launch) on PROTOCOL_RUN_PREFIX + the job's id. */
export const PROTOCOL_RUN_PREFIX = '/api/protocols/runs/';
export const PROTOCOL_NOTE_LIMIT = 1000;

// --- Requests ------------------------------------------------------------------------------------

/** PUT /api/protocols: the client's protocol, added or replaced (checked in full by the API). */
export const saveProtocolRequest = z.object({ client: clientLabelRule, protocol: z.unknown() });

/** PUT /api/protocols/runs/{jobId}: a person's answer to one of the run's manual items. */
export const answerRequest = z.object({
  itemId: z.string().check(z.minLength(1), z.maxLength(PROTOCOL_LIMITS.itemId)),
  status: z.enum(MANUAL_ANSWERS),
  note: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(PROTOCOL_NOTE_LIMIT)))),
});

export const CLIENT_LABEL_LIMIT = INPUT_LIMITS.clientLabel;

// --- Answers -------------------------------------------------------------------------------------

const someText = z.string().check(z.refine((text) => text.trim() !== ''));
const signOff = z.object({ by: someText, at: someText });

/** One saved protocol: the client label as typed, who saved it and when. */
export const storedProtocol = z.object({ client: someText, protocol: protocolSchema, by: someText, at: someText });
export type StoredProtocolItem = z.output<typeof storedProtocol>;

/** GET /api/protocols: the caller's protocols, and CTPO's default for clients without one. */
export const protocolsAnswer = z.object({ protocols: z.array(storedProtocol), default: protocolSchema });
export type ProtocolsAnswer = z.output<typeof protocolsAnswer>;

/** DELETE /api/protocols?client= */
export const removeProtocolAnswer = z.object({ client: z.string(), removed: z.boolean() });
export type RemoveProtocolAnswer = z.output<typeof removeProtocolAnswer>;

/** One item of a run's protocol, as the report scored it and answers since have decided it. */
export const runProtocolItem = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(['auto', 'manual']),
  status: z.enum(ITEM_STATUSES),
  weight: z.number(),
  findings: z.array(z.string()),
  checks: z.optional(z.array(z.string())),
  allow: z.optional(z.number()),
  minSeverity: z.optional(z.enum(PROTOCOL_SEVERITIES)),
  answer: z.optional(z.object({ status: z.enum(MANUAL_ANSWERS), note: z.optional(z.string()), by: z.string(), at: z.string() })),
});

/** GET, PUT and POST /api/protocols/runs/{jobId}: the run's protocol as it stands now. */
export const runProtocolAnswer = z.object({
  protocol: z.object({ name: z.string(), version: z.number(), score: z.nullable(z.number()), items: z.array(runProtocolItem), ready: z.optional(signOff) }),
  canSignOff: z.boolean(),
});
export type RunProtocolAnswer = z.output<typeof runProtocolAnswer>;
