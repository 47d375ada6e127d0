// How many of one kind of work each caller may have going at once: a slot is taken before the work
// starts and given back when it ends, whatever the outcome. This one counts in this process (the
// local server); on AWS, where each request may land on another instance, the count lives in
// DynamoDB (api/aws/dynamo-concurrency-limit.ts).
export interface ConcurrencyLimit {
  readonly max: number;
  /** Takes a slot for the key: the function gives it back (once). Undefined when all are taken. */
  acquire(key: string): (() => void | Promise<void>) | undefined | Promise<(() => void | Promise<void>) | undefined>;
}

export function createConcurrencyLimit(max: number): ConcurrencyLimit {
  const active = new Map<string, number>();
  return {
    max,
    acquire(key) {
      const count = active.get(key) ?? 0;
      if (count >= max) return undefined;
      active.set(key, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (active.get(key) ?? 1) - 1;
        if (left === 0) active.delete(key);
        else active.set(key, left);
      };
    },
  };
}
