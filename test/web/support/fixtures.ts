/** A table of contents in Brightspace's shape, with entries the form must leave out. */
export const TOC = {
  Modules: [
    {
      ModuleId: 101,
      Title: 'Welcome',
      Modules: [
        { ModuleId: 102, Title: 'Course outline', Modules: [{ ModuleId: 103, Title: 'Weekly schedule', Modules: [] }] },
        { ModuleId: null, Title: 'Entry without an id' },
      ],
      Topics: [{ TopicId: 9001, Title: 'Read me first' }],
    },
    { ModuleId: 201, Title: '' },
    { ModuleId: 301, Title: 'Unit 1: Foundations', Modules: [] },
  ],
};

export const TOC_TITLES = ['Welcome', 'Course outline', 'Weekly schedule', 'Unit 1: Foundations'];
