// With the local-use switch (the local stack's default, for its demo course on loopback), links in a
// course still never reach link-local or cloud metadata addresses: not directly, not through a
// name, not through a redirect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { Report } from '../../../api/report/model.ts';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';

let site: BrightspaceSite;
let web: LinkHost;
let report: Report;

beforeAll(async () => {
  web = await startLinkHost();
  const toMetadata = `${web.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/iam/')}`;
  site = await startBrightspaceSite({
    login: 'form',
    users: [{ username: 'qa', password: 'pw-qa-1' }],
    courses: [
      {
        orgUnitId: 6606,
        name: 'Biology',
        code: 'BIO101',
        modules: [
          {
            id: 1,
            title: 'Week 1',
            topics: [
              {
                id: 101,
                title: 'Links',
                kind: 'html',
                fileName: 'links.html',
                html: `<h1>Links</h1><p><a href="http://169.254.169.254/latest/meta-data/">one</a>, <a href="http://[fd00:ec2::254]/latest/">two</a>,
                  <a href="http://metadata.example/computeMetadata/v1/">three</a>, <a href="${toMetadata}">four</a>, <a href="${web.origin}/ok/page">five</a>.</p>`,
              },
            ],
          },
        ],
      },
    ],
  });
  report = await runCourseTest({
    siteUrl: site.origin,
    username: 'qa',
    password: 'pw-qa-1',
    orgUnitId: 6606,
    modules: 'all',
    client: 'Acme',
    allowPrivateTargets: true,
    options: {
      linkTimeoutMs: 5_000,
      // metadata.example resolves to the metadata service; everything else is on loopback.
      resolve: async (host) => (host === 'metadata.example' ? [{ address: '169.254.169.254', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
    },
  });
}, 60_000);

afterAll(async () => {
  await site?.close();
  await web?.close();
});

describe('links to metadata addresses in a course tested with the local-use switch', () => {
  it('are refused by the guard and reported as private, while loopback links are checked', () => {
    const refused = report.findings.filter((finding) => finding.check === 'link.unverifiable').map((finding) => finding.url);
    expect(refused.sort()).toEqual(
      [
        'http://169.254.169.254/latest/meta-data/',
        'http://[fd00:ec2::254]/latest/',
        'http://metadata.example/computeMetadata/v1/',
        `${web.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/iam/')}`,
      ].sort(),
    );
    const messages = new Set(report.findings.filter((finding) => finding.check === 'link.unverifiable').map((finding) => finding.message));
    expect([...messages]).toEqual(['This address leads to a private or local network, which CTPO does not visit. Check it by hand.']);
    expect(web.hits('/ok/page')).toBeGreaterThan(0);
  });
});
