// Structure checks over the table of contents alone: broken and hidden items, empty modules, dates
// that contradict each other or have passed, and siblings students cannot tell apart.
import type { SelectedModule } from '../brightspace/toc.ts';
import type { Finding } from '../engine/types.ts';
import type { TocModule, TocTopic } from '../http/contract.ts';
import { finding, type FindingPlace } from './catalogue.ts';

interface Dates {
  start: Date | null;
  end: Date | null;
  due: Date | null;
}

function dateField(item: TocModule | TocTopic, ...names: string[]): Date | null {
  for (const name of names) {
    const value = item[name];
    if (typeof value === 'string' && value !== '') {
      const date = new Date(value);
      if (!Number.isNaN(date.getTime())) return date;
    }
  }
  return null;
}

function datesOf(item: TocModule | TocTopic): Dates {
  return {
    start: dateField(item, 'StartDateTime', 'StartDate', 'ModuleStartDate'),
    end: dateField(item, 'EndDateTime', 'EndDate', 'ModuleEndDate'),
    due: dateField(item, 'DueDateTime', 'DueDate', 'ModuleDueDate'),
  };
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function dateFindings(item: TocModule | TocTopic, place: FindingPlace, what: string, now: Date): Finding[] {
  const { start, end, due } = datesOf(item);
  const findings: Finding[] = [];
  const problems: string[] = [];
  if (start && end && end < start) problems.push(`ends (${day(end)}) before it starts (${day(start)})`);
  if (due && end && due > end) problems.push(`is due (${day(due)}) after it closes (${day(end)})`);
  if (due && start && due < start) problems.push(`is due (${day(due)}) before it opens (${day(start)})`);
  if (problems.length > 0) {
    findings.push(finding('structure.date-order', place, null, `This ${what} ${problems.join(' and ')}. Fix the dates in its restrictions.`));
  }
  const passed: string[] = [];
  if (end && end < now) passed.push(`closed on ${day(end)}`);
  if (due && due < now) passed.push(`was due on ${day(due)}`);
  if (passed.length > 0) {
    findings.push(finding('structure.past-date', place, null, `This ${what} ${passed.join(' and ')}, which has already passed. Update the dates for this offering.`));
  }
  return findings;
}

function normalTitle(title: string): string {
  return title.replace(/\s+/g, ' ').trim().toLowerCase();
}

export function checkStructure(selected: SelectedModule[], now: Date): Finding[] {
  const findings: Finding[] = [];
  const hiddenModules = new Set<number>();
  const selectedIds = new Set(selected.map((entry) => entry.module.ModuleId));

  for (const entry of selected) {
    const { module } = entry;
    const modulePlace: FindingPlace = { moduleId: module.ModuleId, moduleTitle: module.Title, topicId: null, topicTitle: null };
    const parentHidden = entry.parentModuleId !== null && hiddenModules.has(entry.parentModuleId);
    if (module.IsHidden === true || parentHidden) hiddenModules.add(module.ModuleId);
    // Reported once, on the outermost hidden module: what is inside it is hidden with it.
    if (module.IsHidden === true && !parentHidden) {
      findings.push(finding('structure.hidden', modulePlace, null, 'This module is hidden: students will not see it or anything in it.'));
    }
    if (entry.topics.length === 0 && entry.children.length === 0) {
      findings.push(finding('structure.empty-module', modulePlace, null, 'This module has no topics: add its content or remove it.'));
    }
    findings.push(...dateFindings(module, modulePlace, 'module', now));

    const siblings: { title: string; place: FindingPlace }[] = [
      ...entry.children.filter((child) => selectedIds.has(child.ModuleId)).map((child) => ({
        title: child.Title,
        place: { moduleId: child.ModuleId, moduleTitle: child.Title, topicId: null, topicTitle: null },
      })),
      ...entry.topics.map((topic) => ({ title: topic.Title, place: { ...modulePlace, topicId: topic.TopicId, topicTitle: topic.Title } })),
    ];
    findings.push(...duplicateFindings(siblings, `"${module.Title}"`));

    for (const topic of entry.topics) {
      const place: FindingPlace = { ...modulePlace, topicId: topic.TopicId, topicTitle: topic.Title };
      if (topic.IsBroken === true) {
        findings.push(finding('structure.broken', place, null, 'Brightspace marks this topic as broken: its file or the item it points to is missing. Fix or replace it.'));
      }
      if (topic.IsHidden === true && !hiddenModules.has(module.ModuleId)) {
        findings.push(finding('structure.hidden', place, null, 'This topic is hidden: students will not see it.'));
      }
      findings.push(...dateFindings(topic, place, 'topic', now));
    }
  }

  const roots = selected.filter((entry) => entry.parentModuleId === null);
  findings.push(
    ...duplicateFindings(
      roots.map((entry) => ({ title: entry.module.Title, place: { moduleId: entry.module.ModuleId, moduleTitle: entry.module.Title, topicId: null, topicTitle: null } })),
      'the course',
    ),
  );
  return findings;
}

function duplicateFindings(items: { title: string; place: FindingPlace }[], where: string): Finding[] {
  const firstByTitle = new Map<string, string>();
  const findings: Finding[] = [];
  for (const item of items) {
    const key = normalTitle(item.title);
    if (key === '') continue;
    if (firstByTitle.has(key)) {
      findings.push(finding('structure.duplicate-title', item.place, null, `Another item in ${where} is also called "${item.title.trim()}": students cannot tell them apart. Give each a distinct title.`));
    } else {
      firstByTitle.set(key, item.title);
    }
  }
  return findings;
}
