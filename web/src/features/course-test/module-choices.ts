// The table of contents as checkbox choices: every module, nested ones included and indented,
// but only those with both an id and a title.

export interface ModuleChoice {
  /** The ModuleId as a string; sent back to the API as a number. */
  id: string;
  title: string;
  /** 0 for a top-level module, 1 for a module inside it, and so on. */
  depth: number;
}

function moduleId(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return value.trim();
  return null;
}

export function moduleChoices(toc: unknown): ModuleChoice[] {
  const choices: ModuleChoice[] = [];
  const seen = new Set<string>();
  const visit = (modules: unknown, depth: number) => {
    if (!Array.isArray(modules)) return;
    for (const module of modules) {
      if (typeof module !== 'object' || module === null) continue;
      const { ModuleId, Title, Modules } = module as Record<string, unknown>;
      const id = moduleId(ModuleId);
      const title = typeof Title === 'string' ? Title.trim() : '';
      if (id !== null && title !== '' && !seen.has(id)) {
        seen.add(id);
        choices.push({ id, title, depth });
      }
      visit(Modules, depth + 1);
    }
  };
  if (typeof toc === 'object' && toc !== null) visit((toc as Record<string, unknown>).Modules, 0);
  return choices;
}
