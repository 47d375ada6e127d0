// The demo Brightspace course of the local stack (http://localhost:8444): "Environmental Science 101",
// nested modules with real defects of every check family, some clean topics and topics CTPO cannot
// scan, and the rest of a course (descriptions, assignments, quizzes, a discussion forum,
// announcements, an overview, a weighted gradebook, release conditions) with defects of their own,
// so the first run gives a report worth reading. Its outside links point at a link host on
// this machine (link-host.ts): a demo run never leaves the machine.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createBrightspaceHandler, type SiteModel } from './brightspace-site.ts';
import { type CourseModel } from './course-model.ts';
import { startLinkHost, type LinkHost } from './link-host.ts';
import { listen } from '../node-http.ts';

export const DEMO_USER = 'demo';
export const DEMO_PASSWORD = 'demo-password';
export const DEMO_ORG_UNIT = 6606;
export const DEMO_PORT = 8444;
const CODE = 'ENV101';

/** The demo's modules as the app lists them, in order; nested ones after their parent. */
export const DEMO_MODULES = [
  { id: 100, title: 'Start here' },
  { id: 200, title: 'Unit 1: Ecosystems' },
  { id: 210, title: '1.1 Readings' },
  { id: 220, title: '1.2 Activities' },
  { id: 300, title: 'Unit 2: Water' },
  { id: 400, title: 'Unit 3: Climate' },
  { id: 500, title: 'Final project' },
] as const;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const DAY_MS = 24 * 3600 * 1000;

// Documents made by scripts/make-document-fixtures.ts: a tagged syllabus whose links are partly dead,
// an untagged rubric with no title or language, a long Word handout with neither headings nor alt
// text, and slides without titles.
const demoDocument = (name: string) => readFileSync(new URL(`./documents/${name}`, import.meta.url));
const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/**
 * The course. `web` is the link host's origin; `unreachable` an origin nothing listens on (a link
 * that cannot be reached at all). Dates are set from `now`, so the same dates are wrong (and the
 * same ones right) whenever the demo runs.
 */
export function demoCourse(web: string, unreachable: string, now = new Date()): CourseModel {
  const daysFromNow = (days: number) => new Date(Math.floor(now.getTime() / DAY_MS + days) * DAY_MS).toISOString();
  const origin = `/content/enforced/${DEMO_ORG_UNIT}-${CODE}`;
  return {
    orgUnitId: DEMO_ORG_UNIT,
    name: 'Environmental Science 101',
    code: CODE,
    start: daysFromNow(-14),
    end: daysFromNow(100),
    modules: [
      {
        id: 100,
        title: 'Start here',
        description: '<p>Start with the welcome page, then read the course outline.</p>',
        topics: [
          {
            id: 1001,
            title: 'Welcome to the course',
            kind: 'html',
            fileName: 'start/welcome.html',
            // Clean: real text, a described image, links that work.
            html: page('Welcome', `<h2>Welcome to Environmental Science 101</h2>
<p>This course looks at how living things and their surroundings shape each other, from a single pond to the whole planet.</p>
<p><img src="wetland.png" alt="A wetland at sunrise, with reeds in the foreground and a heron in the water"></p>
<p>Start with the <a href="${web}/ok/syllabus">course syllabus</a>, then read the <a href="/d2l/home/${DEMO_ORG_UNIT}">course home page</a> for announcements.</p>
<p>Questions? Write to <a href="mailto:env101@example.edu">env101@example.edu</a>.</p>`),
          },
          { id: 1002, title: 'Course outline', kind: 'link', url: `${web}/ok/course-outline` },
        ],
      },
      {
        id: 200,
        title: 'Unit 1: Ecosystems',
        // Ends before it starts.
        start: daysFromNow(30),
        end: daysFromNow(23),
        topics: [
          {
            id: 2001,
            title: 'Unit 1 notes',
            kind: 'html',
            fileName: 'unit1/notes.html',
            html: page('Unit 1 notes', `<h2>Unit 1 notes</h2>
<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>
<p>Field trip date: TBD.</p>
<iframe src="food-web.html" title="Food web diagram"></iframe>
<iframe src="${web}/ok/wetland-map" title="Map of the wetland"></iframe>`),
          },
        ],
        modules: [
          {
            id: 210,
            title: '1.1 Readings',
            topics: [
              {
                id: 2101,
                title: 'Reading list',
                kind: 'html',
                fileName: 'unit1/reading-list.html',
                html: page('Reading list', `<h2>Reading list</h2>
<ul>
<li><a href="${web}/ok/food-webs">Food webs, an introduction</a></li>
<li><a href="${web}/missing/energy-pyramids">Energy pyramids (article)</a></li>
<li><a href="${web}/moved/open-textbook">Open textbook, chapter 3</a></li>
<li><a href="${unreachable}/library/catalogue">University library catalogue</a></li>
<li><a href="${web}/forbidden/journal-archive">Journal archive</a></li>
<li>For the glossary, <a href="${web}/ok/glossary">click here</a>.</li>
<li><a href="week2-slides.pptx">Slides for next week (PowerPoint)</a></li>
</ul>
<p><img src="${web}/ok/food-chain-diagram.png" alt="food-chain-diagram.png"></p>
<p><img src="${web}/ok/biomes-map.png"></p>`),
              },
              { id: 2102, title: 'Field guide', kind: 'link', url: `${web}/gone/field-guide-2019` },
            ],
          },
          {
            id: 220,
            title: '1.2 Activities',
            topics: [
              {
                id: 2201,
                title: 'Lab video: measuring a stream',
                kind: 'html',
                fileName: 'unit1/lab-video.html',
                html: page('Lab video', `<h2>Measuring a stream</h2>
<p>Watch both videos before the lab.</p>
<video controls src="${web}/ok/stream-survey.mp4"></video>
<video controls src="${web}/ok/safety-briefing.mp4"><track kind="captions" src="${web}/ok/safety-briefing.vtt" srclang="en" label="English"></video>`),
              },
              { id: 2202, title: 'Unit 1 quiz', kind: 'quiz' },
              // Its instructions carry a session value pasted with an image address.
              { id: 2203, title: 'Lab report', kind: 'assignment', target: 2501 },
            ],
          },
        ],
      },
      {
        id: 300,
        title: 'Unit 2: Water',
        description: '<p>This unit ends with a field trip to the river on [insert date].</p>',
        topics: [
          {
            id: 3001,
            title: 'The water cycle',
            kind: 'html',
            fileName: 'unit2/water-cycle.html',
            html: page('The water cycle', `<h2>The water cycle</h2>
<p>Water moves between oceans, air and land through evaporation, condensation and precipitation.</p>
<p style="color:#a3a3a3">Tip: the diagram on page 12 of the reader shows every stage of the cycle.</p>
<p>Last year's <a href="/d2l/le/content/5120/viewContent/88/View">water cycle activity</a> is still useful.</p>
<p><a href="${web}/ok/water-cycle-poster.pdf"></a></p>`),
          },
          { id: 3002, title: 'The water cycle', kind: 'link', url: `${web}/ok/water-cycle-animation` },
          { id: 3003, title: 'Worksheet', kind: 'html', fileName: 'unit2/worksheet.html', html: page('Worksheet', '<p>&nbsp;</p>\n<div> </div>') },
          { id: 3004, title: 'Handout', kind: 'html', fileName: 'unit2/handout.html', html: '', broken: true },
          { id: 3005, title: 'Answer key', kind: 'link', url: `${web}/ok/answer-key`, hidden: true },
          { id: 3006, title: 'Course syllabus (PDF)', kind: 'file', fileName: 'unit2/syllabus.pdf', contentType: PDF, body: demoDocument('syllabus.pdf') },
          { id: 3007, title: 'Lab handout (Word)', kind: 'file', fileName: 'unit2/lab-handout.docx', contentType: DOCX, body: demoDocument('lab-handout.docx') },
          // Opens a quiz students cannot see, and an assignment that was deleted.
          { id: 3008, title: 'Unit 2 quiz', kind: 'quiz', target: 2302 },
          { id: 3009, title: 'Water diary', kind: 'assignment', target: 2599 },
        ],
      },
      { id: 400, title: 'Unit 3: Climate' },
      {
        id: 500,
        title: 'Final project',
        // Left over from last term.
        due: daysFromNow(-60),
        topics: [
          {
            id: 5001,
            title: 'Project brief',
            kind: 'html',
            fileName: 'project/brief.html',
            description: '<p>Read the brief before you choose your ecosystem.</p>',
            html: page('Project brief', `<h2>Project brief</h2>
<p>Choose a local ecosystem and describe one change people have made to it.</p>
<p>Marking: [insert rubric here].</p>
<p>Submit through the <a href="${web}/ok/submission-guide">submission guide</a>.</p>`),
          },
          { id: 5002, title: 'Rubric (PDF)', kind: 'file', fileName: 'project/rubric.pdf', contentType: 'application/pdf', body: demoDocument('rubric.pdf') },
          { id: 5003, title: 'Peer review forum', kind: 'discussion' },
        ],
      },
    ],
    assignments: [
      {
        id: 2501,
        name: 'Lab report',
        instructions: `<p>Use the template for your stream survey. <img src="${origin}/unit1/bench.png?_&amp;d2lSessionVal=7f3a9c2e41b0&amp;ou=${DEMO_ORG_UNIT}" alt="The lab bench with a stream sample"></p>`,
        links: [{ name: 'Lab report template', href: `${web}/ok/lab-template` }],
        start: daysFromNow(5),
        due: daysFromNow(20),
        end: daysFromNow(25),
        gradeItemId: 9001,
      },
      // Due after it closes, and graded into a grade item that was deleted.
      { id: 5101, name: 'Final project', instructions: '<p>Submit your project as one PDF.</p>', due: daysFromNow(40), end: daysFromNow(35), gradeItemId: 9101 },
      // Hidden, and nothing students see links to it: fine.
      { id: 5102, name: 'Reflection', hidden: true, instructions: '<p>What surprised you this term?</p>', gradeItemId: 9003 },
    ],
    quizzes: [
      {
        id: 2202,
        name: 'Unit 1 quiz',
        description: '<p>Ten questions on ecosystems.</p>',
        due: daysFromNow(10),
        gradeItemId: 9002,
        questions: [
          { id: 22021, text: '<p>Which of these is a producer?</p>', answers: [{ html: '<p>Grass</p>', weight: 100, feedback: '<p>Plants make their own food.</p>' }, { html: '<p>A rabbit</p>' }, { html: '<p>A fox</p>' }] },
          // A placeholder left in a question.
          { id: 22022, text: '<p>Label the food web below.</p><p>[insert food web diagram]</p>' },
          { id: 22023, text: '<p>Decomposers return nutrients to the soil.</p>', trueFalse: { trueFeedback: '<p>Right: fungi and bacteria do.</p>', falseFeedback: '<p>Think of what happens to fallen leaves.</p>' } },
        ],
      },
      // Inactive, and opens after the course ends.
      { id: 2302, name: 'Unit 2 quiz', active: false, description: '<p>Ten questions on water.</p>', start: daysFromNow(120) },
    ],
    forums: [
      {
        id: 5003,
        name: 'Peer review forum',
        description: '<p>Post your draft, then review two drafts of others.</p>',
        topics: [
          // Due before the course started.
          { id: 5301, name: 'Drafts', description: '<p>Post your draft here.</p>', due: daysFromNow(-30) },
          { id: 5302, name: 'Reviews', description: '<p>Review two drafts.</p>' },
        ],
      },
    ],
    announcements: [
      { id: 801, title: 'Welcome to Environmental Science 101', body: `<p>Welcome! Last term's notes are still on the <a href="/d2l/home/5120">old course page</a>.</p>`, start: daysFromNow(-14) },
      { id: 802, title: 'Midterm room', body: '<p>The midterm is in room 101.</p>', start: daysFromNow(-230), end: daysFromNow(-200) },
    ],
    overview: `<p>Environmental Science 101 looks at how living things and their surroundings shape each other. Read the <a href="${web}/ok/syllabus">syllabus</a>. Office hours: TBD.</p>`,
    gradebook: {
      // 40 + 20 + 10 + 20 = 90: the weights do not add up.
      system: 'Weighted',
      categories: [
        { id: 9100, name: 'Labs', weight: 40 },
        { id: 9200, name: 'Quizzes', weight: 20 },
      ],
      items: [
        { id: 9001, name: 'Lab report', categoryId: 9100, weight: 100, tool: { toolId: 2000, toolItemId: 2501 } },
        { id: 9002, name: 'Unit 1 quiz', categoryId: 9200, weight: 100, tool: { toolId: 51000, toolItemId: 2202 } },
        { id: 9003, name: 'Reflection', weight: 10, tool: { toolId: 2000, toolItemId: 5102 } },
        // Nothing is graded into it.
        { id: 9004, name: 'Participation', weight: 20 },
        { id: 9005, name: 'Extra credit', weight: 5, bonus: true, tool: { toolId: 3000, toolItemId: 5302 } },
      ],
    },
    releaseConditions: [
      // Released on a quiz score, of a quiz that was deleted.
      { owner: 'topic', ownerId: 5001, conditions: [{ type: 'ReceivesScoreOnQuiz', text: 'Received a score on quiz: Practice quiz', params: { QuizId: 2299 } }] },
    ],
  };
}

export function demoSite(web: string, unreachable: string, now = new Date()): SiteModel {
  return {
    login: 'form',
    users: [{ username: DEMO_USER, password: DEMO_PASSWORD, firstName: 'Demo', lastName: 'Teacher' }],
    files: {
      [`/content/enforced/${DEMO_ORG_UNIT}-${CODE}/start/wetland.png`]: { contentType: 'image/png', body: 'png' },
      [`/content/enforced/${DEMO_ORG_UNIT}-${CODE}/unit1/bench.png`]: { contentType: 'image/png', body: 'png' },
      // Shown in a frame of "Unit 1 notes": its image has no alternative text.
      [`/content/enforced/${DEMO_ORG_UNIT}-${CODE}/unit1/food-web.html`]: { contentType: 'text/html; charset=utf-8', body: page('Food web', '<h1>Food web</h1><p><img src="bench.png"></p><p>Arrows point from the eaten to the eater.</p>') },
      [`/content/enforced/${DEMO_ORG_UNIT}-${CODE}/unit1/week2-slides.pptx`]: { contentType: PPTX, body: demoDocument('week2-slides.pptx') },
      // What the documents link to on the site; /library/missing.html is left missing on purpose.
      '/library/reading.html': { contentType: 'text/html; charset=utf-8', body: page('Weekly reading', '<h1>Weekly reading</h1><p>Chapter 2: wetlands.</p>') },
    },
    courses: [demoCourse(web, unreachable, now)],
  };
}

export interface DemoCourse {
  /** The address to type as Client Site URL, e.g. http://localhost:8444 */
  origin: string;
  /** The link host the course's outside links point at. */
  web: LinkHost;
  /** The site as it is served: a change to it shows in the next request (a builder fixing a topic). */
  site: SiteModel;
  close(): Promise<void>;
}

export interface DemoCourseOptions {
  /** 8444 by default; 0 picks a free port. */
  port?: number;
  /** Addresses to listen on. Default 127.0.0.1 and ::1 (when the machine has IPv6). */
  hosts?: string[];
  /** Host name of the origin. Default localhost. */
  publicHost?: string;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** An origin on which nothing listens: a port taken and given back at once. */
async function closedOrigin(): Promise<string> {
  const probe = createServer();
  const port = await listen(probe, 0, '127.0.0.1');
  await closeServer(probe);
  return `http://127.0.0.1:${port}`;
}

export async function startDemoCourse(options: DemoCourseOptions = {}): Promise<DemoCourse> {
  const web = await startLinkHost();
  const site = demoSite(web.origin, await closedOrigin());
  const handler = createBrightspaceHandler(site);
  const servers: Server[] = [];
  const hosts = options.hosts ?? ['127.0.0.1', '::1'];
  const askedPort = options.port ?? DEMO_PORT;
  let port = askedPort;
  try {
    for (const [index, host] of hosts.entries()) {
      const server = createServer(handler.handle);
      servers.push(server);
      try {
        port = await listen(server, index === 0 ? askedPort : port, host);
      } catch (error) {
        // No IPv6 loopback on this machine, or a port picked on the first address is taken on the next.
        const code = (error as NodeJS.ErrnoException).code;
        const skippable = index > 0 && (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT' || (askedPort === 0 && code === 'EADDRINUSE'));
        if (!skippable) throw error;
        servers.pop();
      }
    }
  } catch (error) {
    await Promise.all(servers.filter((server) => server.listening).map(closeServer));
    await web.close();
    throw error;
  }
  const publicHost = options.publicHost ?? 'localhost';
  let closing: Promise<void> | undefined;
  return {
    origin: `http://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${port}`,
    web,
    site,
    close() {
      closing ??= Promise.all([...servers.map(closeServer), web.close()]).then(() => undefined);
      return closing;
    },
  };
}
