// The table of contents as checkbox choices: every module, nested ones included and indented,
// but only those with both an id and a title; and the rules of a choice that shows exactly what a
// run will test. A module is chosen for its own topics; checking a module checks everything nested
// in it, and a chosen sub-module brings its parents along. A module whose sub-tree is only partly
// checked is "mixed": the run then tests its own topics and the checked sub-modules, and leaves the
// unchecked ones out (run-tests EXCLUDE_MODULES).
import type { TocAnswer, TocModuleAnswer } from '@contract';

export interface ModuleChoice {
  /** The ModuleId as a string; sent back to the API as a number. */
  id: string;
  title: string;
  /** 0 for a top-level module, 1 for a module inside it, and so on. */
  depth: number;
  /** The listed module this one is nested in, if any. */
  parentId: string | null;
  /** The module's own topics (those of its sub-modules not included). */
  topics: number;
}

export type CheckState = 'checked' | 'mixed' | 'unchecked';

function moduleId(value: number | string | undefined): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return value.trim();
  return null;
}

export function moduleChoices(toc: TocAnswer): ModuleChoice[] {
  const choices: ModuleChoice[] = [];
  const seen = new Set<string>();
  const visit = (modules: readonly TocModuleAnswer[] | undefined, depth: number, parentId: string | null) => {
    for (const module of modules ?? []) {
      const id = moduleId(module.ModuleId);
      const title = module.Title?.trim() ?? '';
      const listed = id !== null && title !== '' && !seen.has(id);
      if (listed) {
        seen.add(id);
        choices.push({ id, title, depth, parentId, topics: module.Topics?.length ?? 0 });
      }
      // A module left out (no id or title) still holds its children: they hang from the nearest listed one.
      visit(module.Modules, depth + 1, listed ? id : parentId);
    }
  };
  visit(toc.Modules, 0, null);
  return choices;
}

/** Each module's direct children, by id. */
function childrenOf(modules: readonly ModuleChoice[]): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const module of modules) {
    if (module.parentId === null) continue;
    const list = children.get(module.parentId) ?? [];
    list.push(module.id);
    children.set(module.parentId, list);
  }
  return children;
}

/** The module and everything nested in it. */
export function subtreeOf(modules: readonly ModuleChoice[], id: string): string[] {
  const children = childrenOf(modules);
  const result: string[] = [];
  const walk = (current: string) => {
    result.push(current);
    for (const child of children.get(current) ?? []) walk(child);
  };
  walk(id);
  return result;
}

export function checkState(modules: readonly ModuleChoice[], selected: ReadonlySet<string>, id: string): CheckState {
  const subtree = subtreeOf(modules, id);
  const count = subtree.filter((member) => selected.has(member)).length;
  if (count === subtree.length) return 'checked';
  return count === 0 ? 'unchecked' : 'mixed';
}

/** The listed module each module is nested in, by id. */
function parentsOf(modules: readonly ModuleChoice[]): Map<string, string | null> {
  return new Map(modules.map((module) => [module.id, module.parentId]));
}

/**
 * Keeps the choice truthful: a chosen module's parents are chosen too (a mixed parent is tested for
 * its own topics), and a parent with no topics of its own and nothing chosen inside it is not.
 */
function settle(modules: readonly ModuleChoice[], selected: Set<string>): Set<string> {
  const parents = parentsOf(modules);
  for (const id of [...selected]) {
    for (let parent = parents.get(id) ?? null; parent !== null && !selected.has(parent); parent = parents.get(parent) ?? null) selected.add(parent);
  }
  const children = childrenOf(modules);
  for (const module of [...modules].sort((a, b) => b.depth - a.depth)) {
    const own = children.get(module.id);
    if (own !== undefined && module.topics === 0 && !own.some((child) => selected.has(child))) selected.delete(module.id);
  }
  return selected;
}

/**
 * The choice a run made (those modules still listed): each of `ids` with everything nested in it,
 * but for `excluded` and what is nested in them, as the API tests them (a module chosen by its own
 * id stays even inside an excluded one).
 */
export function selectionOf(modules: readonly ModuleChoice[], ids: readonly string[], excluded: readonly string[] = []): Set<string> {
  const wanted = new Set(ids);
  const left = new Set(excluded);
  const children = childrenOf(modules);
  const selected = new Set<string>();
  const walk = (id: string, inherited: boolean) => {
    const take = wanted.has(id) || (inherited && !left.has(id));
    if (take) selected.add(id);
    for (const child of children.get(id) ?? []) walk(child, take);
  };
  for (const module of modules) if (module.parentId === null) walk(module.id, false);
  return settle(modules, selected);
}

/** Checking a module, or clicking a mixed one, checks everything in it; unchecking it clears it all. */
export function toggleModule(modules: readonly ModuleChoice[], selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  const subtree = subtreeOf(modules, id);
  if (checkState(modules, selected, id) === 'checked') for (const member of subtree) next.delete(member);
  else for (const member of subtree) next.add(member);
  return settle(modules, next);
}

/** The topics a run over this choice reads: each chosen module's own. */
export function selectedTopicCount(modules: readonly ModuleChoice[], selected: ReadonlySet<string>): number {
  return modules.reduce((sum, module) => sum + (selected.has(module.id) ? module.topics : 0), 0);
}

/** What a run-tests request says of a choice: the chosen modules, and the sub-modules left out of them. */
export interface ModuleRequest {
  /** Every chosen module, in table-of-contents order. */
  modules: string[];
  /** Each unchecked module whose parent is chosen (what is nested in it goes with it). */
  excluded: string[];
  /** The outermost chosen modules and the excluded ones: what names the run in its history. */
  named: ModuleChoice[];
}

export function moduleRequest(modules: readonly ModuleChoice[], selected: ReadonlySet<string>): ModuleRequest {
  const chosen = modules.filter((module) => selected.has(module.id));
  const excluded = modules.filter((module) => !selected.has(module.id) && module.parentId !== null && selected.has(module.parentId));
  const outermost = chosen.filter((module) => module.parentId === null || !selected.has(module.parentId));
  return { modules: chosen.map((module) => module.id), excluded: excluded.map((module) => module.id), named: [...outermost, ...excluded] };
}
