// A store of the verdict cache's port in memory, for the engine's tests: values go through JSON as a
// real store's do, so the engine gets back plain data, never the objects it kept.
import { emptyCourseVerdicts, type CourseVerdicts, type VerdictCache } from '../../../api/engine/verdict-cache.ts';

export class MemoryVerdictCache implements VerdictCache {
  kept: CourseVerdicts = emptyCourseVerdicts();
  saves = 0;
  async load(): Promise<CourseVerdicts> {
    const copy = <T>(entries: Map<string, T>) => new Map(JSON.parse(JSON.stringify([...entries])) as [string, T][]);
    return { items: copy(this.kept.items), links: copy(this.kept.links) };
  }
  async save(_scope: unknown, checked: CourseVerdicts): Promise<void> {
    this.saves++;
    for (const [key, entry] of checked.items) this.kept.items.set(key, JSON.parse(JSON.stringify(entry)));
    for (const [key, entry] of checked.links) this.kept.links.set(key, JSON.parse(JSON.stringify(entry)));
  }
}

