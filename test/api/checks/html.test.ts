import { describe, expect, it } from 'vitest';
import { parseTopic } from '../../../api/checks/html.ts';

const PAGE = new URL('https://school.example.com/content/enforced/5-BIO/week1/page.html');

describe('parseTopic', () => {
  it('finds every link and embedded resource, resolved like a browser, each address once', () => {
    const parsed = parseTopic(
      `<html><head><link rel="stylesheet" href="style.css"><link rel="canonical" href="/ignored"></head><body>
      <a href="next.html#part2">Next</a> <a href="next.html">Next again</a>
      <a href="//cdn.example.com/x.js">cdn</a> <a href="#top">Top</a> <a href="mailto:a@b.c">Mail</a> <a href="javascript:void(0)">JS</a>
      <a href="/d2l/home/{OrgUnitId}">Home</a> <a href="/d2l/lp/{UserId}">Me</a>
      <img src="../img/a.png" srcset="../img/a-2x.png 2x, ../img/a-3x.png 3x">
      <video src="https://media.example.com/v.mp4" poster="poster.jpg"><track src="v.vtt" kind="captions"></video>
      <iframe src="https://video.example.com/embed/1"></iframe><object data="sim.swf"></object>
      <a href="https://exa mple.com/">Bad</a> <a href="data:text/plain,hi">data</a>
      <input type="image" src="go.png" alt="Go"> <input type="text" src="ignored.png">
      </body></html>`,
      PAGE,
      5,
    );
    expect(parsed.links.map((l) => [l.url ?? `invalid ${l.raw}`, l.element, l.embedded])).toEqual([
      ['https://school.example.com/content/enforced/5-BIO/week1/style.css', 'link', true],
      ['https://school.example.com/content/enforced/5-BIO/week1/next.html', 'a', false],
      ['https://cdn.example.com/x.js', 'a', false],
      ['https://school.example.com/d2l/home/5', 'a', false],
      ['https://school.example.com/content/enforced/5-BIO/img/a.png', 'img', true],
      ['https://school.example.com/content/enforced/5-BIO/img/a-2x.png', 'img', true],
      ['https://school.example.com/content/enforced/5-BIO/img/a-3x.png', 'img', true],
      ['https://media.example.com/v.mp4', 'video', true],
      ['https://school.example.com/content/enforced/5-BIO/week1/poster.jpg', 'video', true],
      ['https://school.example.com/content/enforced/5-BIO/week1/v.vtt', 'track', true],
      ['https://video.example.com/embed/1', 'iframe', true],
      ['https://school.example.com/content/enforced/5-BIO/week1/sim.swf', 'object', true],
      ['invalid https://exa mple.com/', 'a', false],
      ['https://school.example.com/content/enforced/5-BIO/week1/go.png', 'input', true],
    ]);
  });

  it('honours <base href> and reads visible text only', () => {
    const parsed = parseTopic('<head><base href="https://other.example.com/dir/"><title>Title</title><style>p{}</style></head><p>Hello <b>world</b></p><script>var x</script><a href="a.html">A</a>', PAGE, 5);
    expect(parsed.links[0]?.url).toBe('https://other.example.com/dir/a.html');
    expect(parsed.text).toBe('Hello world A');
  });
});
