// Dismissed findings on AWS: a table of their own, one item per user, course and finding
// (partition `course`: the owner, site and org unit; sort `fingerprint`), deleted by DynamoDB's time
// to live DISMISSAL_KEEP_DAYS after they were made (and left out of every read once expired).
// The limits are kept by counters written with conditions, one write each (no transactions): a new
// dismissal first takes a place in its course's counter (`#count` in the course's partition, below
// the cap), and the first of a course a place in its owner's counter of courses (`#courses` in the
// owner's own partition). A place is taken before the dismissal is written and given back if it
// was not needed, so a burst never keeps more than a limit; a crash in between can only leave a
// count too high, which the next refusal recounts.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DISMISSAL_KEEP_DAYS, DISMISSAL_LIMITS, type CourseKey, type DismissalStore } from '../jobs/types.ts';
import type { Dismissal } from '../report/model.ts';
import { isConditionFailure } from './dynamo-conditions.ts';

/** Sort keys of the counters: a fingerprint is 20 hex digits, so these never meet one. */
const COURSE_COUNT = '#count';
const OWNER_COURSES = '#courses';
const DAY_MS = 86_400_000;
/** A counter unchanged this long has no dismissal of its still being written (a write takes milliseconds). */
const RECOUNT_AFTER_MS = 60_000;

/** The table's partition key of one user's course: unambiguous whatever the site's address holds. */
export function dismissalPartition(owner: string, course: CourseKey): string {
  return JSON.stringify([owner, course.siteUrl, course.orgUnitId]);
}

/** The partition of the owner's own counter of courses. */
function ownerPartition(owner: string): string {
  return JSON.stringify([owner]);
}

export function createDynamoDismissalStore(options: { client: DynamoDBDocumentClient; tableName: string; now?: () => Date }): DismissalStore {
  const { client, tableName } = options;
  const now = options.now ?? (() => new Date());
  const cutoff = () => new Date(now().getTime() - DISMISSAL_KEEP_DAYS * DAY_MS).toISOString();
  /** The time to live of an item written now, in epoch seconds. */
  const expiresAt = (at: string) => Math.floor((Date.parse(at) + DISMISSAL_KEEP_DAYS * DAY_MS) / 1000);

  /** The live dismissals of a partition, read consistently. */
  async function live(partition: string): Promise<Dismissal[]> {
    const dismissals: Dismissal[] = [];
    const oldest = cutoff();
    let startKey: Record<string, unknown> | undefined;
    do {
      const answer = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'course = :course',
          ExpressionAttributeValues: { ':course': partition },
          ExclusiveStartKey: startKey,
          ConsistentRead: true,
        }),
      );
      for (const item of answer.Items ?? []) {
        if (String(item.fingerprint).startsWith('#') || String(item.at) < oldest) continue;
        const dismissal: Dismissal = { fingerprint: String(item.fingerprint), by: String(item.by), at: String(item.at) };
        if (typeof item.reason === 'string') dismissal.reason = item.reason;
        dismissals.push(dismissal);
      }
      startKey = answer.LastEvaluatedKey;
    } while (startKey !== undefined);
    return dismissals;
  }

  /** Takes a place in a counter below `max`; the count before, or null when it is full. */
  async function take(partition: string, key: string, max: number, expires: number): Promise<number | null> {
    try {
      const answer = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { course: partition, fingerprint: key },
          UpdateExpression: 'SET #n = if_not_exists(#n, :zero) + :one, expiresAt = :expires, changedAt = :now',
          ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max, ':expires': expires, ':now': now().toISOString() },
          ReturnValues: 'UPDATED_OLD',
        }),
      );
      return Number(answer.Attributes?.n ?? 0);
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  /**
   * Gives a place back. A course's counter that reaches nothing is deleted, and gives back the
   * course's place among its owner's (when it held one).
   */
  async function giveBack(owner: string, partition: string, key: string, ownerPlaceHeld = true): Promise<void> {
    const answer = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { course: partition, fingerprint: key },
        UpdateExpression: 'SET #n = #n - :one',
        ConditionExpression: 'attribute_exists(#n) AND #n > :zero',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    ).catch((error: unknown) => (isConditionFailure(error) ? null : Promise.reject(error)));
    if (key !== COURSE_COUNT || answer === null || Number(answer.Attributes?.n) !== 0) return;
    const deleted = await client.send(
      new DeleteCommand({
        TableName: tableName,
        Key: { course: partition, fingerprint: COURSE_COUNT },
        ConditionExpression: '#n = :zero',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    ).then(() => true, (error: unknown) => (isConditionFailure(error) ? false : Promise.reject(error)));
    if (deleted && ownerPlaceHeld) await giveBack(owner, ownerPartition(owner), OWNER_COURSES);
  }

  /**
   * Sets a course's counter to what it holds when items expired under it; true when that freed a
   * place. Only a counter that no request has changed for a while: a place just taken belongs to a
   * dismissal still being written, which a count of the items would not see yet.
   */
  async function recount(partition: string, max: number): Promise<boolean> {
    const counter = await client.send(new GetCommand({ TableName: tableName, Key: { course: partition, fingerprint: COURSE_COUNT }, ConsistentRead: true }));
    if (counter.Item === undefined || String(counter.Item.changedAt) > new Date(now().getTime() - RECOUNT_AFTER_MS).toISOString()) return false;
    const counted = Number(counter.Item.n ?? 0);
    const held = (await live(partition)).length;
    if (held >= counted || held >= max) return false;
    return client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { course: partition, fingerprint: COURSE_COUNT },
        UpdateExpression: 'SET #n = :held',
        ConditionExpression: '#n = :counted',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':held': held, ':counted': counted },
      }),
    ).then(() => true, (error: unknown) => (isConditionFailure(error) ? false : Promise.reject(error)));
  }

  return {
    async list(owner, course) {
      const dismissals = await live(dismissalPartition(owner, course));
      return dismissals.sort((a, b) => a.at.localeCompare(b.at) || a.fingerprint.localeCompare(b.fingerprint));
    },

    async put(owner, course, dismissal, limits = DISMISSAL_LIMITS) {
      const partition = dismissalPartition(owner, course);
      const item = { course: partition, ...dismissal, expiresAt: expiresAt(dismissal.at) };
      const replace = () =>
        client.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_exists(fingerprint)' }))
          .then(() => true, (error: unknown) => (isConditionFailure(error) ? false : Promise.reject(error)));
      // A new reason for a finding already set aside takes no new place.
      if (await replace()) return 'kept';

      // A course without a counter yet needs a place among its owner's courses first: taken before the
      // course's own, so that requests racing into a new course at the limit are all refused.
      const ownerPlace = () => take(ownerPartition(owner), OWNER_COURSES, limits.courses, item.expiresAt);
      const counted = async () => (await client.send(new GetCommand({ TableName: tableName, Key: { course: partition, fingerprint: COURSE_COUNT }, ConsistentRead: true }))).Item !== undefined;
      let ownerTaken = false;
      // Refused a place, the course may have got its counter meanwhile (a request racing this one
      // into the same new course): the course then already holds its place among its owner's.
      if (!(await counted())) {
        if ((await ownerPlace()) !== null) ownerTaken = true;
        else if (!(await counted())) return 'too-many-courses';
      }
      let before = await take(partition, COURSE_COUNT, limits.perCourse, item.expiresAt);
      if (before === null && (await recount(partition, limits.perCourse))) before = await take(partition, COURSE_COUNT, limits.perCourse, item.expiresAt);
      if (before === null) {
        if (ownerTaken) await giveBack(owner, ownerPartition(owner), OWNER_COURSES);
        return 'course-full';
      }
      if (before > 0 && ownerTaken) await giveBack(owner, ownerPartition(owner), OWNER_COURSES);
      // The counter was deleted (its last dismissal restored) between the read and the write.
      if (before === 0 && !ownerTaken && (await ownerPlace()) === null) {
        await giveBack(owner, partition, COURSE_COUNT, false);
        return 'too-many-courses';
      }
      try {
        await client.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(fingerprint)' }));
      } catch (error) {
        // Written meanwhile by another request: the place taken is not needed, and this one replaces it.
        await giveBack(owner, partition, COURSE_COUNT);
        if (!isConditionFailure(error)) throw error;
        await client.send(new PutCommand({ TableName: tableName, Item: item }));
      }
      return 'kept';
    },

    async remove(owner, course, fingerprint) {
      const partition = dismissalPartition(owner, course);
      const answer = await client.send(
        new DeleteCommand({ TableName: tableName, Key: { course: partition, fingerprint }, ReturnValues: 'ALL_OLD' }),
      );
      if (answer.Attributes === undefined) return false;
      await giveBack(owner, partition, COURSE_COUNT);
      return String(answer.Attributes.at) >= cutoff();
    },
  };
}
