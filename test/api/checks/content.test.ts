import { describe, expect, it } from 'vitest';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { checkContent } from '../../../api/checks/content.ts';
import { parseTopic } from '../../../api/extract/html.ts';

const PLACE = topicPlace({ ModuleId: 1, Title: 'M' }, { TopicId: 2, Title: 'T' });
const check = (html: string) => checkContent(parseTopic(html, new URL('https://school.example.com/content/enforced/5-A/page.html'), 5), PLACE, 'https://school.example.com/page');

describe('content.placeholder', () => {
  it.each([
    ['<p>Lorem ipsum dolor sit amet.</p>', '"Lorem ipsum"'],
    ['<p>Due date: TBD</p>', '"TBD"'],
    ['<h2>TODO: write the intro</h2>', '"TODO"'],
    ['<p>Room TBA. FIXME later.</p>', '"TBA", "FIXME"'],
    ['<p>Bring [Insert reading list] to class.</p>', '"[Insert reading list]"'],
  ])('finds %s', (html, quoted) => {
    const findings = check(html);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'content.placeholder', severity: 'error' });
    expect(formatMessage(findings[0]!.message)).toBe(`Placeholder text is still on the page: ${quoted}. Replace it with the real content.`);
  });

  it.each([
    '<p>Todos los estudiantes deben leer el capítulo.</p>', // Spanish, not a marker
    '<p>The lorem of the ipsum.</p>',
    '<p>Arrays [index] are zero-based; see [1].</p>',
    '<p>Some <span title="TODO">real</span> text.</p>', // attributes are not text
    '<script>// TODO: nothing</script><p>Real text.</p>',
  ])('leaves %s alone', (html) => {
    expect(check(html)).toEqual([]);
  });
});

describe('content.empty', () => {
  it('finds a page with only spaces and empty elements', () => {
    expect(check('<html><body><p>&nbsp;</p><div>  </div></body></html>').map((f) => f.check)).toEqual(['content.empty']);
  });

  it('leaves a page with only an image or a frame alone', () => {
    expect(check('<p><img src="a.png" alt="A map"></p>')).toEqual([]);
    expect(check('<iframe src="https://video.example.com/1" title="Lecture"></iframe>')).toEqual([]);
    expect(check('<p>One word</p>')).toEqual([]);
  });
});
