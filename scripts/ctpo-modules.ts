// The command line's view of a course's modules: the nested list --list-modules prints, and the
// ids of the modules --modules names by title (exact, in any case) or id.
import type { TocModule, TocResponse } from '../api/brightspace/types.ts';

/** --modules named no module, or several: the message names the candidates. */
export class ModuleNameError extends Error {}

/** A module of the table of contents with its depth, in the order Brightspace lists them. */
export interface ListedModule {
  id: number;
  title: string;
  depth: number;
  parent: string | null;
}

export function listedModules(toc: TocResponse): ListedModule[] {
  const out: ListedModule[] = [];
  const walk = (modules: readonly TocModule[], depth: number, parent: string | null) => {
    for (const module of modules) {
      out.push({ id: module.ModuleId, title: module.Title, depth, parent });
      walk(module.Modules ?? [], depth + 1, module.Title);
    }
  };
  walk(toc.Modules, 0, null);
  return out;
}

/** The modules, nested, one a line: its id, then its title indented by its depth. */
export function formatModuleList(toc: TocResponse): string {
  const modules = listedModules(toc);
  const width = Math.max(2, ...modules.map((module) => String(module.id).length));
  return modules.map((module) => `${String(module.id).padStart(width)}  ${'  '.repeat(module.depth)}${module.title}`).join('\n');
}

const named = (module: ListedModule) => `"${module.title}" (id ${module.id}${module.parent === null ? '' : `, in "${module.parent}"`})`;

/**
 * Module ids for what --modules named: the whole text as one title (a title may hold a comma), else
 * each part separated by commas as an id or a title. A title matches exactly, in any case; one that
 * matches no module or several is refused, naming the candidates.
 */
export function resolveModuleNames(toc: TocResponse, text: string): number[] {
  const modules = listedModules(toc);
  const same = (a: string, b: string) => a.trim().toLocaleLowerCase('en') === b.trim().toLocaleLowerCase('en');
  const whole = modules.filter((module) => same(module.title, text));
  if (whole.length === 1) return [whole[0]!.id];
  const ids: number[] = [];
  for (const part of text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')) {
    const byId = /^\d+$/.test(part) ? modules.find((module) => module.id === Number(part)) : undefined;
    if (byId !== undefined) {
      ids.push(byId.id);
      continue;
    }
    const matches = modules.filter((module) => same(module.title, part));
    if (matches.length > 1) {
      throw new ModuleNameError(`--modules: "${part}" is the title of ${matches.length} modules: ${matches.map(named).join(', ')}. Give the id of the one to test.`);
    }
    if (matches.length === 0) {
      const near = modules.filter((module) => module.title.toLocaleLowerCase('en').includes(part.toLocaleLowerCase('en')));
      const candidates = (near.length > 0 ? near : modules.filter((module) => module.depth === 0)).slice(0, 10);
      throw new ModuleNameError(`--modules: no module is called "${part}". ${near.length > 0 ? 'Did you mean' : 'The course\'s modules are'} ${candidates.map(named).join(', ')}? --list-modules lists them all.`);
    }
    ids.push(matches[0]!.id);
  }
  return [...new Set(ids)];
}
