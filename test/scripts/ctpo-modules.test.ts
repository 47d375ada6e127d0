// The command line's modules: the nested list --list-modules prints, and --modules by title or id.
import { describe, expect, it } from 'vitest';
import type { TocResponse } from '../../api/brightspace/types.ts';
import { formatModuleList, ModuleNameError, resolveModuleNames } from '../../scripts/ctpo-modules.ts';

const toc: TocResponse = {
  Modules: [
    { ModuleId: 100, Title: 'Start here' },
    {
      ModuleId: 200,
      Title: 'Unit 1: Ecosystems',
      Modules: [
        { ModuleId: 210, Title: '1.1 Readings' },
        { ModuleId: 220, Title: 'Activities' },
      ],
    },
    { ModuleId: 300, Title: 'Unit 2: Water, air and soil', Modules: [{ ModuleId: 320, Title: 'Activities' }] },
    { ModuleId: 1000, Title: 'Final project' },
  ],
};

describe('--list-modules', () => {
  it('prints each module with its id, nested under its parent', () => {
    expect(formatModuleList(toc).split('\n')).toEqual([
      ' 100  Start here',
      ' 200  Unit 1: Ecosystems',
      ' 210    1.1 Readings',
      ' 220    Activities',
      ' 300  Unit 2: Water, air and soil',
      ' 320    Activities',
      '1000  Final project',
    ]);
  });
});

describe('--modules by title', () => {
  it('takes exact titles in any case, ids, and a title with a comma in it', () => {
    expect(resolveModuleNames(toc, 'start HERE')).toEqual([100]);
    expect(resolveModuleNames(toc, 'Final project, 210')).toEqual([1000, 210]);
    expect(resolveModuleNames(toc, 'Unit 2: Water, air and soil')).toEqual([300]);
  });

  it('refuses a title several modules have, naming each with its id and parent', () => {
    expect(() => resolveModuleNames(toc, 'activities')).toThrow(ModuleNameError);
    expect(() => resolveModuleNames(toc, 'activities')).toThrow(
      '--modules: "activities" is the title of 2 modules: "Activities" (id 220, in "Unit 1: Ecosystems"), "Activities" (id 320, in "Unit 2: Water, air and soil"). Give the id of the one to test.',
    );
  });

  it('refuses a title no module has, naming the near ones, or the top-level modules when none is near', () => {
    expect(() => resolveModuleNames(toc, 'Unit')).toThrow('--modules: no module is called "Unit". Did you mean "Unit 1: Ecosystems" (id 200), "Unit 2: Water, air and soil" (id 300)? --list-modules lists them all.');
    expect(() => resolveModuleNames(toc, 'Glossary')).toThrow('--modules: no module is called "Glossary". The course\'s modules are "Start here" (id 100), "Unit 1: Ecosystems" (id 200)');
  });
});
