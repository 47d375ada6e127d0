// CTPO's own protocol, for a client that has none: one item per family of checks in the catalogue
// (links, structure, dates, accessibility, media, documents, content, gradebook) and the manual
// items no machine can decide. test/api/protocol/ holds that every catalogued check is covered.
import type { Protocol } from './protocol-schema.ts';

export const DEFAULT_PROTOCOL: Protocol = {
  name: 'CTPO launch checklist',
  version: 1,
  items: [
    { id: 'links-work', title: 'Every link works and stays in this course', checks: ['link.broken', 'link.unreachable', 'link.internal-missing', 'link.cross-course'], weight: 3 },
    { id: 'links-sound', title: 'Links are secure, exact and visible to students', checks: ['link.*'], weight: 1 },
    { id: 'structure', title: 'Modules and topics are complete and visible', checks: ['structure.broken', 'structure.hidden', 'structure.empty-module', 'structure.duplicate-title', 'structure.release-condition-missing'], weight: 2 },
    { id: 'dates', title: 'Dates are in order and within the course', checks: ['structure.date-order', 'structure.past-date', 'structure.date-outside-course'], weight: 2 },
    { id: 'accessible-pages', title: 'Pages meet WCAG 2.2 AA', checks: ['a11y.*'], weight: 3 },
    { id: 'captions', title: 'Videos have captions', checks: ['media.*'], weight: 2 },
    { id: 'accessible-documents', title: 'PDF, Word and PowerPoint files are accessible', checks: ['doc.*'], weight: 2 },
    { id: 'content-finished', title: 'No placeholder, empty page or pasted session value', checks: ['content.*'], weight: 2 },
    { id: 'gradebook', title: 'The gradebook adds up and every activity is graded into it', checks: ['grades.*'], weight: 2 },
    { id: 'instructor-contact', title: "The instructor's contact information is correct", manual: true, weight: 1 },
    { id: 'matches-syllabus', title: 'Videos, readings and activities match the syllabus', manual: true, weight: 1 },
    { id: 'welcome', title: 'Students find where to start and what is expected of them', manual: true, weight: 1 },
  ],
};
