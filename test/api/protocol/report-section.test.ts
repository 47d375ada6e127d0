// The protocol in the report: the HTML report opens with it (score, every item, the findings behind a
// failed item linked to their place, a manual item's answer with who and when, the sign-off), the
// JSON twin carries `protocol` as the issue defines it, the CSV a row per item; in other languages too.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import type { Protocol } from '../../../api/protocol/protocol-schema.ts';
import { itemKeyOf, withProtocol } from '../../../api/protocol/score-protocol.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { sampleReport } from '../report/support/sample-report.ts';

const protocol: Protocol = {
  name: 'Demo College launch checklist',
  version: 3,
  items: [
    { id: 'links-work', title: 'Every link works', checks: ['link.broken', 'link.unreachable'], weight: 3 },
    { id: 'no-hidden', title: 'Nothing is hidden', checks: ['structure.hidden'], weight: 1, allow: 1 },
    { id: 'contact', title: 'Instructor contact information is correct', manual: true, weight: 1 },
    { id: 'syllabus', title: 'Videos match the syllabus', manual: true, weight: 2 },
  ],
};
const answers = [{ itemId: 'contact', itemKey: itemKeyOf(protocol.items[2]!), status: 'pass' as const, note: 'Checked <with> the dean', by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' }];
const report = { ...withProtocol(sampleReport(), protocol, answers), protocol: { ...withProtocol(sampleReport(), protocol, answers).protocol!, ready: undefined } };
const plain = (value: string | null | undefined) => value?.replace(/\s+/g, ' ').trim();

describe('the JSON twin', () => {
  it('carries protocol: name, version, score and each item with kind, status, weight and findings', () => {
    const json = JSON.parse(renderJsonReport(withProtocol(sampleReport(), protocol, answers)));
    // links-work fails (3), no-hidden passes (1), contact passes (1), syllabus needs a person: 2 / 5.
    expect(json.protocol).toMatchObject({ name: 'Demo College launch checklist', version: 3, score: 40 });
    expect(json.protocol.items.map((item: { id: string; kind: string; status: string; weight: number }) => [item.id, item.kind, item.status, item.weight])).toEqual([
      ['links-work', 'auto', 'fail', 3],
      ['no-hidden', 'auto', 'pass', 1],
      ['contact', 'manual', 'pass', 1],
      ['syllabus', 'manual', 'needs-person', 2],
    ]);
    expect(json.protocol.items[0].findings).toHaveLength(4);
    expect(json.protocol.items[2].answer).toEqual({ status: 'pass', note: 'Checked <with> the dean', by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' });
  });
});

describe('the HTML report', () => {
  const html = renderHtmlReport(report);
  const document = new JSDOM(html).window.document;
  const section = document.querySelector('#protocol')!;

  it('opens with the protocol, its score and the count of each status', () => {
    expect(document.querySelector('main > section')?.id).toBe('protocol');
    expect(document.querySelector('nav.sections a')?.getAttribute('href')).toBe('#protocol');
    expect(plain(section.querySelector('.lead')?.textContent)).toBe('Demo College launch checklist, version 3Readiness score: 40 of 100');
    expect(plain(section.textContent)).toContain('2 passed, 1 failed, 1 need a person, 0 not applicable.');
    expect(plain(section.textContent)).toContain('Ready for launch once every item passes or does not apply.');
  });

  it('lists each item with its status, and links the findings behind a failed one to their place', () => {
    const items = [...section.querySelectorAll('.protocol-item')];
    expect(items.map((item) => plain(item.querySelector('.badge')?.textContent))).toEqual(['Fail', 'Pass', 'Pass', 'Needs a person']);
    const links = [...items[0]!.querySelectorAll('a')].map((link) => link.getAttribute('href')!);
    expect(links).toHaveLength(4);
    for (const href of links) expect(document.getElementById(href.slice(1))?.classList.contains('finding'), href).toBe(true);
    expect(plain(items[0]!.textContent)).toContain('4 open findings, none allowed');
  });

  it("shows a manual item's answer with who and when, the note escaped", () => {
    const contact = section.querySelectorAll('.protocol-item')[2]!;
    expect(plain(contact.textContent)).toContain('Answered by qa@example.com on Nov 28, 2026, 10:00 AM UTC.');
    expect(plain(contact.textContent)).toContain('Note: Checked <with> the dean');
    expect(html).not.toContain('<with>');
  });

  it('says who marked the run ready for launch, and when', () => {
    const ready = renderHtmlReport({ ...report, protocol: { ...report.protocol, ready: { by: 'lead@example.com', at: '2026-11-29T08:30:00.000Z' } } });
    expect(plain(new JSDOM(ready).window.document.querySelector('#protocol')?.textContent)).toContain('Marked ready for launch by lead@example.com on Nov 29, 2026, 8:30 AM UTC.');
  });

  it('is left out, with its anchors and style, of a report without a protocol', () => {
    const bare = renderHtmlReport(sampleReport());
    expect(bare).not.toContain('id="protocol"');
    expect(bare).not.toContain('id="finding-');
    expect(bare).not.toContain('protocol-score');
  });

  it('is written in the report language', () => {
    const french = renderHtmlReport(withProtocol(sampleReport('fr-FR'), protocol, answers));
    const text = plain(new JSDOM(french).window.document.querySelector('#protocol')?.textContent);
    expect(text).toContain('Protocole de test du cours');
    expect(text).toContain('Score de préparation : 40 sur 100');
  });
});

describe('the CSV twin', () => {
  it('has a row per item first: the item, its kind, id and status, and what decided it', () => {
    const rows = renderCsvReport(report).replace(/^\uFEFF/, '').split('\r\n');
    expect(rows[1]).toBe(`"Demo College launch checklist, version 3",,Every link works,Checked by CTPO,links-work,Fail,"4 open findings, none allowed",,,,,${report.protocol.items[0]!.findings.join(' ')}`);
    expect(rows[3]).toBe('"Demo College launch checklist, version 3",,Instructor contact information is correct,Answered by a person,contact,Pass,"Answered by qa@example.com on Nov 28, 2026, 10:00 AM UTC. Note: Checked <with> the dean",,,,,');
    expect(rows[4]).toContain(',syllabus,Needs a person,');
  });
});
