// How DynamoDB says that a write's condition did not hold (the SDK names its error; dynalite does too).
export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
