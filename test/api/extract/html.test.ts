import { describe, expect, it } from 'vitest';
import { anchorNamesOf, classifyAddress, fragmentFound, isClientStateFragment, isValidMailto, metaRefreshUrl, parseTopic, srcsetUrls } from '../../../api/extract/html.ts';

const PAGE = new URL('https://school.example.com/content/enforced/5-BIO/week1/page.html');
const DIR = 'https://school.example.com/content/enforced/5-BIO/week1/';
const parse = (html: string) => parseTopic(html, PAGE, 5);
const found = (html: string) => parse(html).links.map((link) => [link.url ?? `invalid ${link.raw}`, link.element]);

describe('parseTopic: every address a browser loads or a reader follows, each beside a look-alike', () => {
  // [what, html with the address, the address and where it is, a look-alike that is no address]
  const cases: [string, string, [string, string], string][] = [
    ['a link', '<a href="a.html">A</a>', [`${DIR}a.html`, 'a href'], '<a data-href="a.html">A</a>'],
    ['an image map area', '<map><area href="area.html" alt="Area"></map>', [`${DIR}area.html`, 'area href'], '<map><area alt="Area" nohref></map>'],
    ['an image', '<img src="i.png" alt="I">', [`${DIR}i.png`, 'img src'], '<img data-src="i.png" alt="I">'],
    ['an image description page', '<img src="data:," longdesc="desc.html" alt="I">', [`${DIR}desc.html`, 'img longdesc'], '<img src="data:," data-longdesc="desc.html" alt="I">'],
    ['an image button', '<input type="image" src="go.png" alt="Go">', [`${DIR}go.png`, 'input src'], '<input type="text" src="go.png">'],
    ['a video and its poster', '<video poster="poster.jpg"></video>', [`${DIR}poster.jpg`, 'video poster'], '<video data-poster="poster.jpg"></video>'],
    ['an audio file', '<audio src="a.mp3"></audio>', [`${DIR}a.mp3`, 'audio src'], '<audio><!-- <source src="a.mp3"> --></audio>'],
    ['a captions track', '<video><track src="v.vtt" kind="captions"></video>', [`${DIR}v.vtt`, 'track src'], '<video><template><track src="v.vtt"></template></video>'],
    ['a picture source', '<picture><source srcset="wide.webp"><img src="data:," alt=""></picture>', [`${DIR}wide.webp`, 'source srcset'], '<picture><source data-srcset="wide.webp"><img src="data:," alt=""></picture>'],
    ['a frame', '<iframe src="https://video.example.com/embed/1"></iframe>', ['https://video.example.com/embed/1', 'iframe src'], '<iframe srcdoc="&lt;p&gt;https://video.example.com/embed/1"></iframe>'],
    ['an embed', '<embed src="sim.swf">', [`${DIR}sim.swf`, 'embed src'], '<embed data-src="sim.swf">'],
    ['an object', '<object data="sim.pdf"></object>', [`${DIR}sim.pdf`, 'object data'], '<object data-file="sim.pdf"></object>'],
    ['a script file', '<script src="app.js"></script>', [`${DIR}app.js`, 'script src'], '<script>var app = "app.js";</script>'],
    ['a stylesheet', '<link rel="stylesheet" href="s.css">', [`${DIR}s.css`, 'link href'], '<link rel="preconnect" href="https://fonts.example.com">'],
    ['a canonical address', '<link rel="canonical" href="/canonical">', ['https://school.example.com/canonical', 'link href'], '<link rel="dns-prefetch" href="//cdn.example.com">'],
    ['an alternate language', '<link rel="alternate" hreflang="fr" href="/fr/page.html">', ['https://school.example.com/fr/page.html', 'link href'], '<link rel="alternate" hreflang="fr" data-href="/fr/page.html">'],
    ['a refresh to another page', '<meta http-equiv="refresh" content="0; url=next.html">', [`${DIR}next.html`, 'meta refresh'], '<meta http-equiv="refresh" content="30">'],
    ['a metadata image', '<meta property="og:image" content="https://img.example.com/card.png">', ['https://img.example.com/card.png', 'meta content'], '<meta name="description" content="See card.png for the course map">'],
    ['a quotation source', '<blockquote cite="https://source.example.com/q">Q</blockquote>', ['https://source.example.com/q', 'blockquote cite'], '<blockquote>https://source.example.com/q</blockquote>'],
    ['an inline quotation source', '<q cite="quote.html">Q</q>', [`${DIR}quote.html`, 'q cite'], '<q data-cite="quote.html">Q</q>'],
    ['an insertion source', '<ins cite="why.html">new</ins>', [`${DIR}why.html`, 'ins cite'], '<ins>why.html</ins>'],
    ['a deletion source', '<del cite="why-not.html">old</del>', [`${DIR}why-not.html`, 'del cite'], '<del>why-not.html</del>'],
    ['a page background', '<body background="paper.jpg"><p>x</p></body>', [`${DIR}paper.jpg`, 'body background'], '<body data-background="paper.jpg"><p>x</p></body>'],
    ['a table cell background', '<table><tr><td background="cell.png">x</td></tr></table>', [`${DIR}cell.png`, 'td background'], '<table><tr><td data-bg="cell.png">x</td></tr></table>'],
    ['a form that is sent', '<form action="/submit"><button>Send</button></form>', ['https://school.example.com/submit', 'form action'], '<form action=""><button>Send</button></form>'],
    ['a button sending elsewhere', '<form><button formaction="/other">Other</button></form>', ['https://school.example.com/other', 'button formaction'], '<form><button data-formaction="/other">Other</button></form>'],
    ['an SVG image', '<svg><image href="diagram.png"/></svg>', [`${DIR}diagram.png`, 'image href'], '<svg><text>diagram.png</text></svg>'],
    ['an SVG 1.1 link', '<svg><a xlink:href="svg-link.html"><text>go</text></a></svg>', [`${DIR}svg-link.html`, 'a xlink:href'], '<svg xmlns:xlink="http://www.w3.org/1999/xlink"><text>svg-link.html</text></svg>'],
    ['an SVG shape from a sprite', '<svg><use href="icons.svg#star"/></svg>', [`${DIR}icons.svg`, 'use href'], '<svg><symbol id="star"></symbol><use href="#star"/></svg>'],
    ['a style attribute image', '<div style="background: url(bg.png)">x</div>', [`${DIR}bg.png`, 'div style url()'], '<div style="content: \'url(bg.png)\'">x</div>'],
    ['a style element image', '<style>.x { background: url("bg2.png") }</style>', [`${DIR}bg2.png`, 'style url()'], '<style>/* .x { background: url("bg2.png") } */</style>'],
    ['a style element import', '<style>@import "more.css";</style>', [`${DIR}more.css`, 'style @import'], '<style>p { color: red } @import "more.css";</style>'],
    ['a scheme in capitals', '<a href="HTTPS://Example.COM/Path">x</a>', ['https://example.com/Path', 'a href'], '<a href="javascript:location=\'https://example.com/Path\'">x</a>'],
    ['an address with spaces', '<a href="my file.pdf">x</a>', [`${DIR}my%20file.pdf`, 'a href'], '<code>my file.pdf</code>'],
    ['a protocol-relative address', '<a href="//cdn.example.com/lib.js">x</a>', ['https://cdn.example.com/lib.js', 'a href'], '<pre>//cdn.example.com/lib.js</pre>'],
    ['a non-ASCII path', '<a href="café/menu.html">x</a>', [`${DIR}caf%C3%A9/menu.html`, 'a href'], '<!-- <a href="café/menu.html">x</a> -->'],
  ];

  it.each(cases)('%s', (_what, html, expected, lookAlike) => {
    expect(found(html)).toContainEqual(expected);
    expect(found(lookAlike).map(([url]) => url)).not.toContain(expected[0]);
  });

  it('never reads text in comments, code, pre, script, template, noscript or textarea as links', () => {
    const parsed = parse(`<!-- <a href="c1.html">c</a> --><code>https://code.example.com/</code><pre>https://pre.example.com/</pre>
      <script>fetch("https://script.example.com/")</script><template><a href="tpl.html">t</a><img src="tpl.png"></template>
      <noscript><img src="noscript.png"></noscript><textarea><a href="textarea.html">t</a></textarea>
      <a href="javascript:void(0)">js</a><div data-src="lazy.png" data-href="data.html"></div>`);
    expect(parsed.links).toEqual([]);
    expect(parsed.otherSchemes).toEqual([]);
  });

  it('keeps a real link inside <pre> or <code>: a reader can click it', () => {
    expect(found('<pre><a href="in-pre.html">x</a></pre><code><a href="in-code.html">y</a></code>')).toEqual([
      [`${DIR}in-pre.html`, 'a href'],
      [`${DIR}in-code.html`, 'a href'],
    ]);
  });

  it('names what the author sees: link text, image alt, and counts a repeated address once', () => {
    const parsed = parse('<a href="x.html">Week <b>one</b></a> <a href="x.html">again</a> <a href="y.html"><img src="y.png" alt="Map of the site"></a> <img src="z.png" alt="A chart">');
    expect(parsed.links.map((link) => [link.url, link.text, link.count])).toEqual([
      [`${DIR}x.html`, 'Week one', 2],
      [`${DIR}y.html`, 'Map of the site', undefined],
      [`${DIR}y.png`, 'Map of the site', undefined],
      [`${DIR}z.png`, 'A chart', undefined],
    ]);
  });

  it('honours the first <base href>, relative to the page, and ignores a broken one', () => {
    expect(found('<base href="../shared/"><base href="https://other.example.com/"><a href="a.html">A</a>')).toEqual([
      ['https://school.example.com/content/enforced/5-BIO/shared/a.html', 'a href'],
    ]);
    expect(found('<base href="https://exa mple.com/"><a href="a.html">A</a>')).toEqual([[`${DIR}a.html`, 'a href']]);
  });

  it('fills in {OrgUnitId} and leaves other replace strings alone', () => {
    expect(found('<a href="/d2l/home/{OrgUnitId}">Home</a><a href="/d2l/lp/{UserId}">Me</a>')).toEqual([['https://school.example.com/d2l/home/5', 'a href']]);
  });

  it('reports an address that cannot work, and says when it is a file on a computer', () => {
    const links = parse('<a href="https://exa mple.com/">x</a><a href="file:///C:/Users/me/notes.docx">y</a><a href="C:\\Users\\me\\notes.docx">z</a><a href="htps://typo.example.com/">t</a>').links;
    expect(links.map((link) => [link.url, link.raw, link.problem])).toEqual([
      [null, 'https://exa mple.com/', undefined],
      [null, 'file:///C:/Users/me/notes.docx', 'local-file'],
      [null, 'C:\\Users\\me\\notes.docx', 'local-file'],
      [null, 'htps://typo.example.com/', undefined],
    ]);
  });

  it('marks stylesheets and forms that only post', () => {
    const links = parse('<link rel="stylesheet" href="s.css"><form method="post" action="/send"><button formaction="/alt">a</button></form><form action="/search"></form>').links;
    expect(links.map((link) => [link.element, Boolean(link.stylesheet), Boolean(link.postOnly)])).toEqual([
      ['link href', true, false],
      ['form action', false, true],
      ['button formaction', false, true],
      ['form action', false, false],
    ]);
  });
});

describe('srcset, as the HTML standard parses it', () => {
  it.each([
    ['density descriptors', 'a.png 1x, b.png 2x', ['a.png', 'b.png']],
    ['width descriptors with no spaces after commas', '/300.png 300w,/600.png 600w,relative.png 10w', ['/300.png', '/600.png', 'relative.png']],
    ['a URL with commas', '/img/format=webp,width=640/a.jpg 640w, /img/format=webp,width=750/b.jpg 750w', ['/img/format=webp,width=640/a.jpg', '/img/format=webp,width=750/b.jpg']],
    ['a data: URI, which is one candidate and no address', 'data:image/png;base64,iVBORw0KGgo= 1x, b.png 2x', ['data:image/png;base64,iVBORw0KGgo=', 'b.png']],
    ['a candidate with no descriptor', 'a.png, b.png 2x', ['a.png', 'b.png']],
    ['leading, trailing and repeated commas', ' ,a.png,,, b.png , ', ['a.png', 'b.png']],
    ['two URLs joined by a comma with no space: one URL', 'a.png,b.png', ['a.png,b.png']],
    ['newlines between candidates', 'a.png 1x,\n  b.png 2x', ['a.png', 'b.png']],
    ['a candidate with an invalid descriptor is dropped, the rest kept', 'a.png 2x 100w, b.png 1x', ['b.png']],
    ['empty', '   ', []],
  ])('%s', (_what, srcset, expected) => {
    expect(srcsetUrls(srcset)).toEqual(expected);
  });

  it('never turns a data: URI into invented addresses', () => {
    expect(found('<img srcset="data:image/png;base64,AAAA,BBBB 1x, data:image/gif;base64,R0lG 2x" alt="">')).toEqual([]);
  });
});

describe('addresses that are not the web: never fetched', () => {
  it.each(['mailto:ada@example.edu', 'tel:+15551234567', 'sms:+15551234567', 'slack://channel?team=T1&id=C1', 'zoommtg://zoom.us/join?confno=123', 'msteams://teams.microsoft.com/l/meetup-join/x', 'irc://irc.example.net/%23course', 'ftp://ftp.example.edu/pub/'])('%s is counted, not checked', (address) => {
    const parsed = parse(`<a href="${address}">x</a>`);
    expect(parsed.links).toEqual([]);
    expect(parsed.otherSchemes.map((link) => [link.raw, link.valid])).toEqual([[address, true]]);
  });

  it.each(['javascript:void(0)', 'data:text/plain,hello', 'about:blank', 'blob:https://example.com/1', ''])('%j is no link at all', (address) => {
    const parsed = parse(`<a href="${address}">x</a><img src="${address}" alt="">`);
    expect([...parsed.links, ...parsed.otherSchemes]).toEqual([]);
  });

  it.each([
    ['mailto:ada@example.edu', true],
    ['mailto:hello@example.org?subject=%5BHello%5D', true],
    ['mailto:a@example.edu,b@example.edu', true],
    ['mailto:?to=ada@example.edu&subject=Hi', true],
    ['mailto:?subject=Feedback', true],
    ['mailto:josé@exämple.fr', true],
    ['mailto:%20ada@example.edu', true],
    ['mailto:', false],
    ['mailto:ada.example.edu', false],
    ['mailto:ada@@example.edu', false],
    ['mailto:ada@example..edu', false],
    ['mailto:ada lovelace@example.edu', false],
    ['mailto:ada@example.edu,', true],
  ])('%s is a valid e-mail link: %s', (address, valid) => {
    expect(isValidMailto(address)).toBe(valid);
  });
});

describe('meta refresh, by the standard declarative refresh steps', () => {
  it.each([
    ['0;url=http://a.example/', 'http://a.example/'],
    ['5; URL=next.html', 'next.html'],
    ['0;URL=\'quoted.html\' trailing', 'quoted.html'],
    ['3, http://b.example/', 'http://b.example/'],
    ['0 next.html', 'next.html'],
    ['.5; url = "x y.html"', 'x y.html'],
    ['30', null],
    ['0;', null],
    ['soon; url=x.html', null],
  ])('%j gives %j', (content, expected) => {
    expect(metaRefreshUrl(content)).toBe(expected);
  });
});

describe('fragments', () => {
  it('collects fragments per address, and links into this very page apart', () => {
    const parsed = parse('<h2 id="intro">Intro</h2><a name="old-style"></a><a href="#intro">i</a><a href="#missing">m</a><a href="page.html#intro">self</a><a href="other.html#part-2">o</a><a href="other.html#part-2">o again</a><a href="other.html#part-3">o3</a>');
    expect([...parsed.anchorNames].sort()).toEqual(['intro', 'old-style']);
    expect(parsed.ownFragments.map((f) => [f.fragment, f.count])).toEqual([['intro', 2], ['missing', undefined]]);
    expect(parsed.links).toHaveLength(1);
    expect(parsed.links[0]!.fragments!.map((f) => [f.fragment, f.text, f.count])).toEqual([['part-2', 'o', 2], ['part-3', 'o3', undefined]]);
  });

  it('finds a fragment by id or name, as written or percent-decoded; top and empty are the top', () => {
    const anchors = new Set(['in-the-beginning', 'Upper-ÄÖö', 'tangent%3A-kustomize', 'legacy']);
    expect(fragmentFound('in-the-beginning', anchors)).toBe(true);
    expect(fragmentFound('Upper-%C3%84%C3%96%C3%B6', anchors)).toBe(true);
    expect(fragmentFound('tangent%3A-kustomize', anchors)).toBe(true);
    expect(fragmentFound('legacy', anchors)).toBe(true);
    expect(fragmentFound('', anchors)).toBe(true);
    expect(fragmentFound('TOP', anchors)).toBe(true);
    expect(fragmentFound('in-THE-begiNNing', anchors)).toBe(false);
    expect(fragmentFound('in-the-end', anchors)).toBe(false);
  });

  it('reads the anchors of a page, rendered Markdown permalinks included', () => {
    const anchors = anchorNamesOf('<h2 id="user-content-install"><a id="user-content-usage-anchor" href="#usage"></a>Usage</h2><a name="old"></a><!-- <p id="hidden"> --><a href="#not-an-anchor">x</a>');
    expect([...anchors].sort()).toEqual(['old', 'usage', 'user-content-install', 'user-content-usage-anchor']);
    expect(fragmentFound('install', anchors)).toBe(true);
    expect(fragmentFound('usage', anchors)).toBe(true);
    expect(fragmentFound('not-an-anchor', anchors)).toBe(false);
  });

  it('leaves state kept by scripts alone', () => {
    expect(['/route', '!/legacy', 'code/PTAE', ':~:text=hello', 'page=3'].every(isClientStateFragment)).toBe(true);
    expect(['section-2', 'missing-section'].some(isClientStateFragment)).toBe(false);
  });
});

describe('classifyAddress', () => {
  it('splits the fragment off a web address and keeps an empty one', () => {
    expect(classifyAddress('a.html#x', PAGE, 5)).toEqual({ kind: 'web', url: `${DIR}a.html`, fragment: 'x' });
    expect(classifyAddress('a.html#', PAGE, 5)).toEqual({ kind: 'web', url: `${DIR}a.html`, fragment: '' });
    expect(classifyAddress('a.html', PAGE, 5)).toEqual({ kind: 'web', url: `${DIR}a.html`, fragment: null });
  });

  it('reads "//////" as no host at all: it cannot work', () => {
    expect(classifyAddress('//////', PAGE, 5).kind).toBe('invalid');
  });
});
