// Reading JSON of unknown shape: the one test that a value is a JSON object before its fields are
// read (an array is not one). Brightspace's answers, our own report read back, and request bodies
// all go through it.

export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
