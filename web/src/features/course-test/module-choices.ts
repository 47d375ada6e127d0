// The table of contents as checkbox choices: every module, nested ones included and indented,
// but only those with both an id and a title; and the rules of a choice that shows what a run
// will test. The API tests a module with everything nested in it, so a checked module has all its
// sub-modules checked, and a module whose sub-modules are only partly checked is "mixed": its own
// topics are then left out, since asking for them would bring every sub-module along.
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

/**
 * A parent is checked exactly when all its sub-modules are: after any change, each parent follows
 * its children, deepest first.
 */
function settleParents(modules: readonly ModuleChoice[], selected: Set<string>): Set<string> {
  const children = childrenOf(modules);
  for (const module of [...modules].sort((a, b) => b.depth - a.depth)) {
    const own = children.get(module.id);
    if (own === undefined) continue;
    if (own.every((child) => selected.has(child))) selected.add(module.id);
    else selected.delete(module.id);
  }
  return selected;
}

/**
 * The choice a run of these module ids made (those still listed): each with everything nested in
 * it, as the API tests them, and parents following their children.
 */
export function selectionOf(modules: readonly ModuleChoice[], ids: readonly string[]): Set<string> {
  const listed = new Set(modules.map((module) => module.id));
  return settleParents(modules, new Set(ids.filter((id) => listed.has(id)).flatMap((id) => subtreeOf(modules, id))));
}

/** Checking a module, or clicking a mixed one, checks everything in it; unchecking it clears it all. */
export function toggleModule(modules: readonly ModuleChoice[], selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  const subtree = subtreeOf(modules, id);
  if (checkState(modules, selected, id) === 'checked') for (const member of subtree) next.delete(member);
  else for (const member of subtree) next.add(member);
  return settleParents(modules, next);
}

/** The topics a run over this choice reads: each checked module's own. */
export function selectedTopicCount(modules: readonly ModuleChoice[], selected: ReadonlySet<string>): number {
  return modules.reduce((sum, module) => sum + (selected.has(module.id) ? module.topics : 0), 0);
}
