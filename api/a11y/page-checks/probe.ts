// The in-page probe: runs inside the rendered item (in its isolated world) and reads what the page checks
// judge, as the browser has it after layout and scripts: accessible names, resolved addresses,
// computed styles, visibility. It judges nothing; each function is sent to the page as source, so
// it uses nothing from outside itself.
import type { PageFacts } from './page-facts.ts';

/** How much one page sends back at most (a long page is judged on its first parts). */
export interface ProbeLimits {
  links: number;
  images: number;
  texts: number;
  blocks: number;
  /** Characters of text kept per text or block. */
  textChars: number;
}

export const PROBE_LIMITS: ProbeLimits = { links: 300, images: 100, texts: 60, blocks: 40, textChars: 400 };

/** The page's facts, without the keyboard's (keyboard.ts adds those); `scripted` says whether anything on the page can run code (listen for a click, hold the focus). */
export function probePage(limits: ProbeLimits): Omit<PageFacts, 'keyboard'> & { scripted: boolean } {
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);
  const describe = (element: Element) => {
    // Only the opening tag and the start of the text are kept: a block's whole text (the body's) is not read for that.
    const tag = (element.cloneNode(false) as Element).outerHTML.replace(/<\/[^>]*>$/, '');
    const text = oneLine((element.textContent ?? '').slice(0, 400));
    return shorten(oneLine(`${tag}${text}`), 160);
  };
  const selectorOf = (element: Element): string => {
    const parts: string[] = [];
    let current: Element | null = element;
    while (current !== null && current !== document.documentElement && parts.length < 5) {
      if (current.id !== '' && document.querySelectorAll(`#${CSS.escape(current.id)}`).length === 1) {
        parts.unshift(`#${CSS.escape(current.id)}`);
        break;
      }
      const tag = current.tagName.toLowerCase();
      const parent: Element | null = current.parentElement;
      const same = parent === null ? [] : [...parent.children].filter((child) => child.tagName === current!.tagName);
      parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(current) + 1})` : tag);
      current = parent;
    }
    return parts.join(' > ');
  };
  const fact = (element: Element) => ({ html: describe(element), selector: selectorOf(element) });
  const visible = (element: Element) => element.checkVisibility({ visibilityProperty: true });
  const hidden = (element: Element) => element.getAttribute('aria-hidden') === 'true' || !visible(element);

  // The accessible name, as a screen reader computes it for the common cases.
  const textOf = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    if (!(node instanceof Element) || hidden(node)) return '';
    const tag = node.tagName.toLowerCase();
    const label = node.getAttribute('aria-label');
    if (label !== null && label.trim() !== '') return ` ${label} `;
    if (tag === 'img' || tag === 'area' || (tag === 'input' && (node as HTMLInputElement).type === 'image')) return ` ${node.getAttribute('alt') ?? ''} `;
    if (tag === 'svg') return ` ${node.querySelector('title')?.textContent ?? ''} `;
    const inner = [...node.childNodes].map(textOf).join('');
    return getComputedStyle(node).display === 'inline' ? inner : ` ${inner} `;
  };
  const byIds = (ids: string | null) => (ids ?? '').split(/\s+/).flatMap((id) => {
    const target = id === '' ? null : document.getElementById(id);
    return target === null ? [] : [oneLine(target.textContent ?? '')];
  }).join(' ');
  const nameOf = (element: Element) => {
    const labelled = byIds(element.getAttribute('aria-labelledby'));
    if (labelled !== '') return labelled;
    const label = element.getAttribute('aria-label');
    if (label !== null && label.trim() !== '') return oneLine(label);
    const text = oneLine(textOf(element));
    return text !== '' ? text : oneLine(element.getAttribute('title') ?? '');
  };
  const ownText = (element: Element): boolean => [...element.querySelectorAll('*'), element].some((node) =>
    [...node.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && (child.textContent ?? '').trim() !== '' && !hidden(node)));

  const links: PageFacts['links'] = [];
  let previous: Element | null = null;
  for (const element of document.querySelectorAll('a[href], area[href]')) {
    if (links.length >= limits.links) break;
    if (!visible(element) && element.tagName.toLowerCase() !== 'area') continue;
    const rawHref = element.getAttribute('href') ?? '';
    // Resolved here rather than read from .href, which an SVG link holds as an object, not a string.
    const href = URL.canParse(rawHref.trim(), document.baseURI) && rawHref.trim() !== '' ? new URL(rawHref.trim(), document.baseURI).href : '';
    let followsLink = false;
    if (previous !== null && !previous.contains(element)) {
      const between = document.createRange();
      between.setStartAfter(previous);
      between.setEndBefore(element);
      followsLink = between.toString().trim() === '' && between.cloneContents().querySelector('img, svg, input, button, iframe, video') === null;
    }
    previous = element;
    const images = element.querySelectorAll('img, svg, [role="img"]');
    links.push({
      ...fact(element),
      name: nameOf(element),
      rawHref,
      href,
      target: (element.getAttribute('target') ?? '').trim().toLowerCase(),
      description: oneLine(`${element.getAttribute('title') ?? ''} ${byIds(element.getAttribute('aria-describedby'))}`),
      imageOnly: images.length > 0 && !ownText(element),
      hasText: ownText(element),
      role: (element.getAttribute('role') ?? '').trim().toLowerCase(),
      followsLink,
      scripted: element.hasAttribute('onclick') || (element as HTMLElement).onclick !== null,
    });
  }

  const images: PageFacts['images'] = [];
  for (const element of document.querySelectorAll('img[alt], input[type="image" i][alt], area[alt]')) {
    if (images.length >= limits.images) break;
    const src = element.getAttribute('src') ?? element.getAttribute('href') ?? '';
    images.push({ ...fact(element), alt: element.getAttribute('alt') ?? '', src });
  }

  // Text, and the language it is marked as: each block's own text (nested blocks and parts marked
  // with a lang of their own are facts of their own), and inline parts long enough to judge alone.
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'code', 'pre', 'kbd', 'samp', 'var', 'svg', 'math', 'textarea', 'select', 'option']);
  const isBlock = (element: Element) => !['inline', 'contents'].includes(getComputedStyle(element).display);
  const texts: PageFacts['texts'] = [];
  const blocks: PageFacts['blocks'] = [];
  const underlined: PageFacts['underlined'] = [];
  const blinking: PageFacts['blinking'] = [];
  const ownTextOf = (element: Element): string => [...element.childNodes].map((child) => {
    if (child.nodeType === Node.TEXT_NODE) return child.textContent ?? '';
    if (!(child instanceof Element) || SKIP.has(child.tagName.toLowerCase()) || child.hasAttribute('lang') || isBlock(child) || hidden(child)) return ' ';
    return ownTextOf(child);
  }).join('');
  const langOf = (element: Element) => (element.closest('[lang]')?.getAttribute('lang') ?? '').trim();
  const underlines = (element: Element) => getComputedStyle(element).textDecorationLine.includes('underline');
  const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) => (SKIP.has((node as Element).tagName.toLowerCase()) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let node = walker.currentNode as Element | null; node !== null; node = walker.nextNode() as Element | null) {
    const element = node;
    if (!visible(element)) continue;
    const style = getComputedStyle(element);
    const block = isBlock(element) || element.hasAttribute('lang');
    const own = oneLine(block ? ownTextOf(element) : '');
    const tag = element.tagName.toLowerCase();
    if (texts.length < limits.texts && own !== '' && block) texts.push({ ...fact(element), text: shorten(own, limits.textChars), lang: langOf(element) });
    else if (texts.length < limits.texts && !block && ['q', 'i', 'em', 'cite', 'span', 'b', 'strong'].includes(tag)) {
      const inline = oneLine(element.textContent ?? '');
      if (inline.length >= 40) texts.push({ ...fact(element), text: shorten(inline, limits.textChars), lang: langOf(element) });
    }
    if (blocks.length < limits.blocks && block && own !== '') {
      const capitals = /\p{Lu}/u.test(own) && own === own.toUpperCase();
      if (style.textAlign === 'justify' || style.textTransform === 'uppercase' || capitals) {
        const lineHeight = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
        const lines = Math.max(1, Math.round(element.getBoundingClientRect().height / lineHeight));
        blocks.push({ ...fact(element), text: shorten(own, limits.textChars), textAlign: style.textAlign, textTransform: style.textTransform, lines });
      }
    }
    const line = style.textDecorationLine;
    if (line.includes('blink') && blinking.length < 20) blinking.push(fact(element));
    if (line.includes('underline') && underlined.length < 20 && !['a', 'abbr', 'acronym', 'ins', 'input', 'button', 'select', 'textarea'].includes(tag)
      && element.closest('a[href], [role="link"]') === null && (element.parentElement === null || !underlines(element.parentElement))
      && oneLine(element.textContent ?? '') !== '' && !(tag === 'span' && element.closest('abbr[title]') !== null)) {
      // Underlined text that is no link: whatever text it holds besides its links.
      const clone = element.cloneNode(true) as Element;
      clone.querySelectorAll('a[href], [role="link"]').forEach((link) => link.remove());
      if (oneLine(clone.textContent ?? '') !== '') underlined.push(fact(element));
    }
  }

  const tables: PageFacts['tables'] = [];
  for (const table of [...document.querySelectorAll('table')].slice(0, 30) as HTMLTableElement[]) {
    if (!visible(table)) continue;
    const role = (table.getAttribute('role') ?? '').trim().toLowerCase();
    const rows = [...table.rows];
    const columns = Math.max(0, ...rows.map((row) => [...row.cells].reduce((sum, cell) => sum + Math.max(1, cell.colSpan), 0)));
    const cells = rows.flatMap((row) => [...row.cells]);
    tables.push({
      ...fact(table),
      layout: role === 'presentation' || role === 'none',
      rows: rows.length,
      columns,
      headerCells: cells.filter((cell) => cell.tagName.toLowerCase() === 'th' || ['columnheader', 'rowheader'].includes((cell.getAttribute('role') ?? '').toLowerCase())).length,
      linkedCells: cells.filter((cell) => cell.hasAttribute('headers') || cell.hasAttribute('scope')).length,
      caption: oneLine(table.caption?.textContent ?? '') !== '',
      summary: (table.getAttribute('summary') ?? '').trim() !== '',
      blockContent: table.querySelector('table') !== null || cells.some((cell) => cell.querySelector('h1, h2, h3, h4, h5, h6, ul, ol, dl, blockquote, form') !== null || cell.querySelectorAll('p').length > 1),
    });
  }

  const refresh: PageFacts['refresh'] = [];
  for (const meta of document.querySelectorAll('meta[http-equiv]')) {
    if ((meta.getAttribute('http-equiv') ?? '').trim().toLowerCase() !== 'refresh') continue;
    const content = meta.getAttribute('content') ?? '';
    const match = /^\s*(\d+(?:\.\d*)?)\s*(?:[;,]\s*(?:url\s*=\s*)?['"]?([^'"]*))?/i.exec(content);
    refresh.push({ ...fact(meta), delay: match === null ? null : Math.floor(Number(match[1])), url: match?.[2]?.trim() ?? '' });
  }

  // Frames and plugins count: their content may have scripts of its own.
  const scripted = document.scripts.length > 0 || document.querySelector('iframe, frame, object, embed') !== null
    || [...document.querySelectorAll('*')].some((element) => element.getAttributeNames().some((name) => name.startsWith('on')));
  return { pageLang: (document.documentElement.getAttribute('lang') ?? '').trim(), links, images, texts, blocks, underlined, blinking, tables, refresh, scripted };
}
