// Bounds on the findings one course item may add to a report: a hostile or generated file (a deck
// that lists one empty slide 20,000 times) would otherwise make a report of tens of megabytes that
// no one reads. What is past a cap is counted, and said in one finding of its own.
import { isMessage, msg, type MessageId } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding } from './finding.ts';

/**
 * Findings of one check kept per item. Fifty places of the same problem in one page or file show
 * the pattern and give a builder a day's work; the next run lists the rest once these are fixed.
 */
export const MAX_FINDINGS_PER_CHECK = 50;

/**
 * Findings kept per item, all checks together. A page with every one of the hundred-odd checks
 * failing fifty times would still make a report too long to read; 500 is ten times what the
 * worst real pages of our benchmark courses have.
 */
export const MAX_FINDINGS_PER_ITEM = 500;

/** What identifies an item for the caps: its place, and the document when the finding is in one. */
function itemKey(found: Finding): string {
  return `${found.itemType}:${found.itemId}:${found.topicId}:${found.moduleId}:${found.document ?? ''}`;
}

/** A check's own title where the catalogue has one (an axe rule without one goes by its id). */
function checkName(check: string): ReturnType<typeof msg> | string {
  const title = msg(`check.${check}` as MessageId);
  return isMessage(title) ? title : check;
}

/** Keeps findings within the caps as they come, and counts those it drops. */
export class FindingCaps {
  readonly kept: Finding[] = [];
  readonly #perItem = new Map<string, { total: number; byCheck: Map<string, number> }>();
  /** Per item and check: the first finding dropped (for its place) and how many were. */
  readonly #dropped = new Map<string, { example: Finding; count: number }>();
  readonly #maxPerCheck: number;
  readonly #maxPerItem: number;

  constructor(limits: { perCheck?: number; perItem?: number } = {}) {
    this.#maxPerCheck = limits.perCheck ?? MAX_FINDINGS_PER_CHECK;
    this.#maxPerItem = limits.perItem ?? MAX_FINDINGS_PER_ITEM;
  }

  add(found: Finding): void {
    const key = itemKey(found);
    let counts = this.#perItem.get(key);
    if (counts === undefined) {
      counts = { total: 0, byCheck: new Map() };
      this.#perItem.set(key, counts);
    }
    const ofCheck = counts.byCheck.get(found.check) ?? 0;
    if (ofCheck < this.#maxPerCheck && counts.total < this.#maxPerItem) {
      counts.byCheck.set(found.check, ofCheck + 1);
      counts.total++;
      this.kept.push(found);
      return;
    }
    const droppedKey = `${key}\n${found.check}`;
    const dropped = this.#dropped.get(droppedKey);
    if (dropped === undefined) this.#dropped.set(droppedKey, { example: found, count: 1 });
    else dropped.count++;
  }

  /** One finding per item and check that reached a cap, saying how many more there were. */
  overflow(): Finding[] {
    return [...this.#dropped.values()].map(({ example, count }) => {
      const { moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle } = example;
      const perItem = (this.#perItem.get(itemKey(example))?.byCheck.get(example.check) ?? 0) < this.#maxPerCheck;
      return finding('limit.findings', { moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle }, example.document ?? example.url, msg('finding.limit.findings', {
        count,
        max: perItem ? this.#maxPerItem : this.#maxPerCheck,
        cap: perItem ? 'item' : 'check',
        check: checkName(example.check),
      }), {
        count,
        subject: `limit.findings:${example.document ?? ''}:${example.check}`,
        ...(example.document === undefined ? {} : { document: example.document }),
      });
    });
  }
}
