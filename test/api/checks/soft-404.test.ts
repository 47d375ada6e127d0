import { describe, expect, it } from 'vitest';
import { saysNotFound, softNotFound, textSimilarity } from '../../../api/checks/soft-404.ts';
import { pageFactsOf } from '../../../api/extract/page-facts.ts';
import type { PageSnapshot } from '../../../api/net/link-checker.ts';

const SITE = 'https://www.example.edu';
const LONG_NOT_FOUND = 'Sorry, we could not find that page. It may have moved, or the address may be mistyped. Try the search box above, browse the A to Z index of our departments, or go back to the home page and start again from there. Contact the web team if you followed a link from another site and tell us where you found it.';
const ARTICLE = 'Igneous rocks form when magma cools. Slow cooling deep underground gives large crystals, as in granite; fast cooling at the surface gives small crystals, as in basalt. Sedimentary rocks form from layers of sediment pressed together over long periods, and metamorphic rocks form when heat and pressure change existing rock.';

function page(requested: string, over: Partial<PageSnapshot> = {}): PageSnapshot {
  return { requested: `${SITE}${requested}`, url: `${SITE}${requested}`, status: 200, title: 'Example University', heading: '', text: '', ...over };
}
const missing = (over: Partial<PageSnapshot> = {}) => page('/0f4c-ctpo-missing-page', over);

describe('softNotFound', () => {
  it('finds a page that answers 200 and says it was not found, by its title or its heading, in our languages', () => {
    expect(softNotFound(page('/courses/geology', { title: 'Page not found | Example University' }), missing({ title: 'Page not found | Example University' }))).toBe('not-found');
    expect(softNotFound(page('/kurse/geologie', { title: 'Beispiel', heading: 'Fehler 404: Seite nicht gefunden' }), missing())).toBe('not-found');
    expect(softNotFound(page('/cours', { title: 'Oups ! Page introuvable – Exemple' }), missing())).toBe('not-found');
    expect(softNotFound(page('/kouza', { title: 'ページが見つかりません | 例' }), missing())).toBe('not-found');
    expect(softNotFound(page('/x', { title: "Oops! That page can’t be found. – Example" }), missing())).toBe('not-found');
  });

  it('finds a page whose text is the host\'s not-found page, word for word, under the same title', () => {
    expect(softNotFound(page('/old/news', { title: 'Example University', text: LONG_NOT_FOUND.replace('that page', 'the page /old/news') }), missing({ text: LONG_NOT_FOUND }))).toBe('not-found');
  });

  it('finds a link sent where the host sends a missing address: its home page, its sign-in page', () => {
    const home = { url: `${SITE}/` };
    expect(softNotFound(page('/2019/course-notes', home), missing(home))).toBe('home');
    const signIn = { url: `${SITE}/login?returnUrl=%2F` };
    expect(softNotFound(page('/library/reserves', signIn), missing(signIn))).toBe('sign-in');
  });

  it('leaves alone a page about 404 errors, a short real page, and every page of a site whose pages are all short', () => {
    expect(softNotFound(page('/help/errors', { title: 'What a 404 Not Found error means and how to fix it', heading: 'How to fix page not found errors', text: 'A 404 error means the server found no page at the address. '.repeat(10) }), missing({ title: 'Page not found', text: LONG_NOT_FOUND }))).toBeNull();
    expect(softNotFound(page('/contact', { title: 'Contact | Example University', text: 'Call us on 555 0100.' }), missing({ title: 'Example University', text: 'Nothing here.' }))).toBeNull();
    expect(softNotFound(page('/a', { title: 'Tiny site', text: 'Hello.' }), missing({ title: 'Tiny site', text: 'Hello.' }))).toBeNull();
  });

  it('leaves alone a real page on a host that answers missing addresses with a page, a home link, and hosts that answer honestly', () => {
    expect(softNotFound(page('/rocks', { title: 'Rocks | Example', text: ARTICLE }), missing({ text: LONG_NOT_FOUND }))).toBeNull();
    expect(softNotFound(page('/', { url: `${SITE}/` }), missing({ url: `${SITE}/` }))).toBeNull();
    expect(softNotFound(page('/old', { title: 'Page not found' }), missing({ status: 404 }))).toBeNull();
    // A redirect elsewhere than where missing addresses go is a move, not a dead link.
    expect(softNotFound(page('/old', { url: `${SITE}/new`, title: 'New', text: ARTICLE }), missing({ url: `${SITE}/` }))).toBeNull();
  });
});

describe('saysNotFound and textSimilarity', () => {
  it('matches the phrase alone or with companion words, never inside a longer title', () => {
    expect(saysNotFound('404 - Not Found')).toBe(true);
    expect(saysNotFound('Sayfa bulunamadı')).toBe(true);
    expect(saysNotFound('Understanding the 404 Not Found error')).toBe(false);
    expect(saysNotFound('Lost and found')).toBe(false);
  });

  it('compares only texts long enough to compare', () => {
    expect(textSimilarity(ARTICLE, ARTICLE)).toBe(1);
    expect(textSimilarity(ARTICLE, LONG_NOT_FOUND)).toBeLessThan(0.1);
    expect(textSimilarity('Hello there.', 'Hello there.')).toBeNull();
  });
});

describe('pageFactsOf', () => {
  it('reads the title, the first main heading and the visible text, without scripts or styles', () => {
    expect(pageFactsOf('<html><head><title> Page  not found </title><style>p{}</style></head><body><nav>Menu</nav><h1>Oops <em>404</em></h1><script>var x</script><p>Try again.</p><h1>Second</h1></body></html>'))
      .toEqual({ title: 'Page not found', heading: 'Oops 404', text: 'Menu Oops 404 Try again. Second' });
  });
});
