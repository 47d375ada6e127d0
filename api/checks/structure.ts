// Structure checks over the table of contents alone: broken and hidden items, empty modules, dates
// that contradict each other, have passed or fall outside the course's own dates, and siblings
// students cannot tell apart. The date checks serve every item with dates (activities too).
import { datesOf, type CourseDates, type Dates, type SelectedModule } from '../brightspace/toc.ts';
import { msg, type Message } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import { type Finding } from './finding.ts';
import { modulePlace, topicPlace, type ItemPlace } from '../brightspace/places.ts';

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The dates of any item (a module, a topic, an assignment...), checked against each other and today;
 * with `course`, the course offering's dates, against those too. One wrong date is one finding: a
 * date outside the course's dates that has also passed (last term's date left in a copied course) is
 * told as outside the course, which says what to do about it, and not again as passed.
 */
export function dateFindings(dates: Dates, place: ItemPlace, now: Date, course?: CourseDates): Finding[] {
  const { start, end, due } = dates;
  const findings: Finding[] = [];
  const problems: Message[] = [];
  if (start && end && end < start) problems.push(msg('finding.structure.ends-before-start', { end: day(end), start: day(start) }));
  if (due && end && due > end) problems.push(msg('finding.structure.due-after-end', { due: day(due), end: day(end) }));
  if (due && start && due < start) problems.push(msg('finding.structure.due-before-start', { due: day(due), start: day(start) }));
  if (problems.length > 0) {
    findings.push(finding('structure.date-order', place, null, msg('finding.structure.date-order', { kind: kindOf(place), problems: listOf(problems) }), { subject: 'dates' }));
  }
  const outside = course === undefined ? () => false : outsideOf(course);
  const passed: Message[] = [];
  if (end && end < now && !outside(end)) passed.push(msg('finding.structure.closed-on', { end: day(end) }));
  if (due && due < now && !outside(due)) passed.push(msg('finding.structure.was-due-on', { due: day(due) }));
  if (passed.length > 0) {
    findings.push(finding('structure.past-date', place, null, msg('finding.structure.past-date', { kind: kindOf(place), problems: listOf(passed) }), { subject: 'dates' }));
  }
  if (course !== undefined) findings.push(...courseDateFindings(dates, place, course));
  return findings;
}

const outsideOf = (course: CourseDates) => (date: Date | null) => date !== null && ((course.start !== null && date < course.start) || (course.end !== null && date > course.end));

/** A start, due or end date outside the course offering's dates. */
export function courseDateFindings(dates: Dates, place: ItemPlace, course: CourseDates): Finding[] {
  if (course.start === null && course.end === null) return [];
  const outside = outsideOf(course);
  const problems: Message[] = [];
  if (outside(dates.start)) problems.push(msg('finding.structure.opens-on', { start: day(dates.start!) }));
  if (outside(dates.due)) problems.push(msg('finding.structure.due-on', { due: day(dates.due!) }));
  if (outside(dates.end)) problems.push(msg('finding.structure.closes-on', { end: day(dates.end!) }));
  if (problems.length === 0) return [];
  const range = course.start !== null && course.end !== null
    ? msg('finding.structure.course-range', { start: day(course.start), end: day(course.end) })
    : course.start !== null
      ? msg('finding.structure.course-from', { start: day(course.start) })
      : msg('finding.structure.course-until', { end: day(course.end!) });
  return [finding('structure.date-outside-course', place, null, msg('finding.structure.date-outside-course', { kind: kindOf(place), problems: listOf(problems), range }), { subject: 'course-dates' })];
}

/** The item's kind as a message select value (ICU keys take no hyphen). */
function kindOf(place: ItemPlace): string {
  return place.itemType.replaceAll('-', '_');
}

/** "a", "a and b", as one message. */
function listOf(parts: Message[]): Message {
  return parts.slice(1).reduce((joined, next) => msg('finding.structure.and', { first: joined, second: next }), parts[0]!);
}

function normalTitle(title: string): string {
  return title.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** `course`: the course offering's dates, when known, for `structure.date-outside-course`. */
export function checkStructure(selected: SelectedModule[], now: Date, course?: CourseDates): Finding[] {
  const findings: Finding[] = [];
  const hiddenModules = new Set<number>();
  const selectedIds = new Set(selected.map((entry) => entry.module.ModuleId));

  for (const entry of selected) {
    const { module } = entry;
    const ownPlace = modulePlace(module);
    const parentHidden = entry.parentModuleId !== null && hiddenModules.has(entry.parentModuleId);
    if (module.IsHidden === true || parentHidden) hiddenModules.add(module.ModuleId);
    // Reported once, on the outermost hidden module: what is inside it is hidden with it.
    if (module.IsHidden === true && !parentHidden) {
      findings.push(finding('structure.hidden', ownPlace, null, msg('finding.structure.module-hidden'), { subject: 'visibility' }));
    }
    if (entry.topics.length === 0 && entry.children.length === 0) {
      findings.push(finding('structure.empty-module', ownPlace, null, msg('finding.structure.empty-module'), { subject: 'contents' }));
    }
    findings.push(...dateFindings(datesOf(module), ownPlace, now, course));

    const siblings: { title: string; place: ItemPlace }[] = [
      ...entry.children.filter((child) => selectedIds.has(child.ModuleId)).map((child) => ({ title: child.Title, place: modulePlace(child) })),
      ...entry.topics.map((topic) => ({ title: topic.Title, place: topicPlace(module, topic) })),
    ];
    findings.push(...duplicateFindings(siblings, msg('finding.structure.in-module', { module: module.Title })));

    for (const topic of entry.topics) {
      const place = topicPlace(module, topic);
      if (topic.IsBroken === true) {
        findings.push(finding('structure.broken', place, null, msg('finding.structure.broken'), { subject: 'target' }));
      }
      if (topic.IsHidden === true && !hiddenModules.has(module.ModuleId)) {
        findings.push(finding('structure.hidden', place, null, msg('finding.structure.topic-hidden'), { subject: 'visibility' }));
      }
      findings.push(...dateFindings(datesOf(topic), place, now, course));
    }
  }

  const roots = selected.filter((entry) => entry.parentModuleId === null);
  findings.push(
    ...duplicateFindings(
      roots.map((entry) => ({ title: entry.module.Title, place: modulePlace(entry.module) })),
      msg('finding.structure.in-course'),
    ),
  );
  return findings;
}

function duplicateFindings(items: { title: string; place: ItemPlace }[], where: Message): Finding[] {
  const firstByTitle = new Map<string, string>();
  const findings: Finding[] = [];
  for (const item of items) {
    const key = normalTitle(item.title);
    if (key === '') continue;
    if (firstByTitle.has(key)) {
      findings.push(finding('structure.duplicate-title', item.place, null, msg('finding.structure.duplicate-title', { where, title: item.title.trim() }), { subject: key }));
    } else {
      firstByTitle.set(key, item.title);
    }
  }
  return findings;
}
