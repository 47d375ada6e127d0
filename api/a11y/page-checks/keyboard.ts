// Tabbing through a rendered item with the keyboard, as a student without a mouse does: Tab is
// pressed through Playwright's keyboard (a real key event, so :focus-visible and the page's own key
// handlers apply), and after each press the page says where the focus went. A focused element shows
// a focus indicator when its computed look (or its parent's, or its ::before/::after) differs from
// its look before tabbing; where nothing differs, two screenshots of the element, focused and not,
// decide. And the page's click listeners (read through DevTools, which sees those added by script)
// are matched against what the keyboard can reach. What runs in the page runs in its isolated world
// (page-world.ts), where the page's scripts cannot reach the walk's state.
import type { CDPSession, Page } from 'playwright-core';
import type { PageWorld } from '../page-world.ts';
import type { ElementFact, KeyboardFacts } from './page-facts.ts';

export interface KeyboardLimits {
  /** Presses of Tab at most, however long the tab order. */
  presses: number;
  /** Screenshot pairs at most, to confirm elements whose computed look did not change. */
  screenshots: number;
  /** Presses the focus may spend inside one frame, player or date field before it counts as stuck. */
  insideCompound: number;
  /** Elements with click listeners looked at, at most. */
  listeners: number;
}

export const KEYBOARD_LIMITS: KeyboardLimits = { presses: 60, screenshots: 6, insideCompound: 30, listeners: 30 };

interface Step {
  /** Index of the focused element in the page's list; -1 outside the page (the walk is over), -2 for the page itself. */
  index: number;
  /** An element that had the focus since the last press and lost it to nothing (a script blurred it). */
  removed: ElementFact | null;
  /** The focus may move inside the element without leaving it (a frame, a media player, a date field). */
  compound: boolean;
  /** Its look changed on focus ('style'), or did not ('same'); 'skip' where a caret or an empty box decides nothing. */
  look: 'style' | 'same' | 'skip';
  fact: ElementFact | null;
  rect: { x: number; y: number; width: number; height: number } | null;
}

interface Suspect {
  index: number;
  fact: ElementFact;
  rect: NonNullable<Step['rect']>;
}

/**
 * Runs in the page: lists the tab order and records each element's look before any has the focus.
 * With `focusEach` (an item without scripts), it then gives each element the focus as the keyboard
 * does (focus-visible), in turn, and returns those whose look did not change; in one round trip.
 */
function prepare(focusEach: number | null): { tabbable: number; same: Suspect[] } {
  const visible = (element: Element) => element.checkVisibility({ visibilityProperty: true });
  const candidates = document.querySelectorAll(
    'a[href], area[href], button, input, select, textarea, iframe, object, embed, audio[controls], video[controls], summary, [tabindex], [contenteditable]',
  );
  const elements = [...candidates].filter((element) => {
    const html = element as HTMLElement;
    return html.tabIndex >= 0 && !(html as HTMLButtonElement).disabled && visible(element) && element.closest('[inert]') === null
      && !(element.tagName === 'INPUT' && (element as HTMLInputElement).type === 'hidden');
  });
  const look = (element: Element): string => {
    const invisibleOutline = (style: CSSStyleDeclaration) =>
      ['none', 'hidden'].includes(style.outlineStyle) || style.outlineWidth === '0px' || /rgba\(.*,\s*0\)$|transparent/.test(style.outlineColor);
    const parts = (style: CSSStyleDeclaration, pseudo: boolean) => [
      pseudo ? style.content : '',
      invisibleOutline(style) ? 'none' : `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} ${style.outlineOffset}`,
      style.boxShadow, style.backgroundColor, style.backgroundImage, style.color, style.borderTopColor, style.borderRightColor,
      style.borderBottomColor, style.borderLeftColor, style.borderTopWidth, style.borderBottomWidth, style.borderTopStyle, style.borderBottomStyle,
      style.textDecorationLine, style.textDecorationColor, style.fontWeight, style.opacity, style.transform, style.filter, style.visibility,
    ].join('|');
    const parent = element.parentElement;
    return [
      parts(getComputedStyle(element), false),
      parts(getComputedStyle(element, '::before'), true),
      parts(getComputedStyle(element, '::after'), true),
      parent === null ? '' : parts(getComputedStyle(parent), false),
    ].join('#');
  };
  (document.activeElement as HTMLElement | null)?.blur?.();
  const state = { elements: elements as Element[], looks: new Map(elements.map((element) => [element, look(element)])), look, focused: [] as Element[] };
  document.addEventListener('focus', (event) => void state.focused.push(event.target as Element), true);
  (window as unknown as { __ctpoKeyboard: typeof state }).__ctpoKeyboard = state;
  const same: Suspect[] = [];
  if (focusEach === null) return { tabbable: elements.length, same };
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  state.elements.slice(0, focusEach).forEach((element, index) => {
    const tag = element.tagName.toLowerCase();
    const type = tag === 'input' ? (element as HTMLInputElement).type : '';
    // A caret, and the controls of a player or a date field, are indicators of their own.
    if (tag === 'textarea' || (element as HTMLElement).isContentEditable || (tag === 'input' && ['text', 'search', 'email', 'url', 'tel', 'password', 'number', ''].includes(type))) return;
    if (['audio', 'video'].includes(tag) || ['date', 'datetime-local', 'month', 'time', 'week'].includes(type)) return;
    (element as HTMLElement).focus({ focusVisible: true } as FocusOptions);
    const box = element.getBoundingClientRect();
    if (box.width * box.height === 0 || look(element) !== state.looks.get(element)) return;
    const opening = (element.cloneNode(false) as Element).outerHTML.replace(/<\/[^>]*>$/, '');
    const html = oneLine(`${opening}${oneLine((element.textContent ?? '').slice(0, 400))}`);
    same.push({
      index,
      fact: { html: html.length > 160 ? `${html.slice(0, 157)}...` : html, selector: element.id !== '' ? `#${CSS.escape(element.id)}` : tag },
      rect: { x: box.x, y: box.y, width: box.width, height: box.height },
    });
  });
  (document.activeElement as HTMLElement | null)?.blur?.();
  state.focused.length = 0;
  // Kept only for the screenshots of elements whose look did not change.
  if (same.length === 0) delete (window as unknown as { __ctpoKeyboard?: unknown }).__ctpoKeyboard;
  return { tabbable: elements.length, same };
}

/** Runs in the page after a press: where the focus is, and whether its element's look changed. */
function observe(): Step {
  type State = { elements: Element[]; looks: Map<Element, string>; look: (element: Element) => string; focused: Element[] };
  const state = (window as unknown as { __ctpoKeyboard: State }).__ctpoKeyboard;
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const factOf = (element: Element): ElementFact => {
    const tag = (element.cloneNode(false) as Element).outerHTML.replace(/<\/[^>]*>$/, '');
    const html = oneLine(`${tag}${oneLine((element.textContent ?? '').slice(0, 400))}`);
    const parts: string[] = [];
    let current: Element | null = element;
    while (current !== null && current !== document.documentElement && parts.length < 5) {
      if (current.id !== '') {
        parts.unshift(`#${CSS.escape(current.id)}`);
        break;
      }
      const parent: Element | null = current.parentElement;
      const same = parent === null ? [] : [...parent.children].filter((child) => child.tagName === current!.tagName);
      parts.unshift(same.length > 1 ? `${current.tagName.toLowerCase()}:nth-of-type(${same.indexOf(current) + 1})` : current.tagName.toLowerCase());
      current = parent;
    }
    return { html: html.length > 160 ? `${html.slice(0, 157)}...` : html, selector: parts.join(' > ') };
  };
  const focused = state.focused.splice(0);
  const active = document.activeElement;
  if (active === null || active === document.body || active === document.documentElement) {
    const lost = focused.filter((element) => element !== document.body && element !== document.documentElement).at(-1);
    return { index: lost === undefined ? -1 : -2, removed: lost === undefined ? null : factOf(lost), compound: false, look: 'skip', fact: null, rect: null };
  }
  let index = state.elements.indexOf(active);
  if (index < 0) {
    index = state.elements.push(active) - 1;
    state.looks.set(active, '');
  }
  const tag = active.tagName.toLowerCase();
  const type = tag === 'input' ? (active as HTMLInputElement).type : '';
  const compound = ['iframe', 'object', 'embed', 'audio', 'video'].includes(tag) || active.shadowRoot !== null
    || ['date', 'datetime-local', 'month', 'time', 'week'].includes(type);
  const caret = tag === 'textarea' || (active as HTMLElement).isContentEditable
    || (tag === 'input' && ['text', 'search', 'email', 'url', 'tel', 'password', 'number', ''].includes(type));
  const box = active.getBoundingClientRect();
  const rect = box.width * box.height === 0 ? null : { x: box.x, y: box.y, width: box.width, height: box.height };
  const before = state.looks.get(active);
  const look = caret || compound || rect === null || before === '' ? 'skip' : state.look(active) === before ? 'same' : 'style';
  return { index, removed: null, compound, look, fact: factOf(active), rect };
}

/**
 * Tabs through the page; the click listeners are read first, while nothing has the focus. On an item
 * without scripts (nor frames or plugins, whose content may have its own), nothing can hold or take
 * the focus and the browser's own tab order holds: one press of Tab puts the page in the keyboard's
 * hands, then each element takes the focus in turn inside the page, in one round trip instead of
 * two per element (a topic's tab walk cost more than axe's whole run on it).
 */
export async function walkKeyboard(page: Page, devtools: CDPSession, world: PageWorld, scripted: boolean, limits: KeyboardLimits = KEYBOARD_LIMITS): Promise<KeyboardFacts> {
  const clickOnly = scripted ? await clickOnlyElements(devtools, world, limits.listeners) : [];
  if (!scripted) {
    // The keyboard's first press, then the rest of the tab order in the page.
    await page.keyboard.press('Tab');
    const { tabbable, same } = await world.evaluate(prepare, limits.presses);
    const facts: KeyboardFacts = { tabbable, presses: 1, complete: tabbable <= limits.presses, noVisibleFocus: [], focusRemoved: [], trap: [], clickOnly };
    let screenshots = 0;
    for (const suspect of same) {
      if (screenshots >= limits.screenshots) break;
      await world.evaluate(({ index }: { index: number }) => {
        const state = (window as unknown as { __ctpoKeyboard: { elements: HTMLElement[] } }).__ctpoKeyboard;
        state.elements[index]?.focus({ focusVisible: true } as FocusOptions);
      }, suspect);
      if (await looksSameUnfocused(page, world, suspect.rect)) facts.noVisibleFocus.push(suspect.fact);
      screenshots++;
    }
    if (same.length > 0) await world.evaluate(() => void delete (window as unknown as { __ctpoKeyboard?: unknown }).__ctpoKeyboard, undefined);
    return facts;
  }
  const { tabbable } = await world.evaluate(prepare, null);
  const facts: KeyboardFacts = { tabbable, presses: 0, complete: false, noVisibleFocus: [], focusRemoved: [], trap: [], clickOnly };
  if (tabbable === 0) {
    facts.complete = true;
    return facts;
  }
  const visits = new Map<number, number>();
  let previous = -3;
  let stuck = 0;
  let screenshots = 0;
  const maxPresses = Math.min(limits.presses, tabbable + limits.insideCompound);
  while (facts.presses < maxPresses) {
    await page.keyboard.press('Tab');
    facts.presses++;
    const step = await world.evaluate(observe, undefined);
    if (step.removed !== null) facts.focusRemoved.push(step.removed);
    if (step.index === -1) {
      facts.complete = true;
      break;
    }
    if (step.index === -2) continue;
    if (step.index === previous) {
      if (step.compound && ++stuck < limits.insideCompound) continue;
      // Tab left the focus where it was: if Shift+Tab cannot move it either, it is trapped.
      await page.keyboard.press('Shift+Tab');
      const back = await world.evaluate(observe, undefined);
      if (back.index === step.index) facts.trap.push(step.fact!);
      break;
    }
    stuck = 0;
    previous = step.index;
    const seen = (visits.get(step.index) ?? 0) + 1;
    visits.set(step.index, seen);
    if (seen > 1) {
      // Back at an element already visited: the tab order has wrapped around (every element seen),
      // or the focus goes round a part of the page and never reaches the rest.
      if (visits.size >= tabbable) facts.complete = true;
      else if (seen > 2) facts.trap.push(step.fact!);
      if (facts.complete || facts.trap.length > 0) break;
      continue;
    }
    if (step.look === 'same' && step.rect !== null && step.fact !== null) {
      if (screenshots >= limits.screenshots) continue;
      screenshots++;
      if (!(await looksSameUnfocused(page, world, step.rect))) continue;
      facts.noVisibleFocus.push(step.fact);
    }
  }
  await world.evaluate(() => void delete (window as unknown as { __ctpoKeyboard?: unknown }).__ctpoKeyboard, undefined);
  return facts;
}

/**
 * Screenshots the focused element's box (and a margin for an outline) focused, then without the
 * focus, and gives the focus back: true when the two are the same to the pixel. The caret and
 * animations can only make them differ, which counts as an indicator: never a false flag.
 */
async function looksSameUnfocused(page: Page, world: PageWorld, rect: NonNullable<Step['rect']>): Promise<boolean> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  const margin = 8;
  const x = Math.max(0, Math.floor(rect.x - margin));
  const y = Math.max(0, Math.floor(rect.y - margin));
  const clip = { x, y, width: Math.min(viewport.width, Math.ceil(rect.x + rect.width + margin)) - x, height: Math.min(viewport.height, Math.ceil(rect.y + rect.height + margin)) - y };
  if (clip.width <= 0 || clip.height <= 0) return false;
  const focused = await page.screenshot({ clip, animations: 'disabled', caret: 'initial' });
  // The focused element is kept in the world's state between the two calls.
  await world.evaluate(() => {
    const state = (window as unknown as { __ctpoKeyboard: { blurred?: HTMLElement | null } }).__ctpoKeyboard;
    state.blurred = document.activeElement as HTMLElement | null;
    state.blurred?.blur();
  }, undefined);
  try {
    const unfocused = await page.screenshot({ clip, animations: 'disabled', caret: 'initial' });
    return focused.equals(unfocused);
  } finally {
    await world.evaluate(() => {
      const state = (window as unknown as { __ctpoKeyboard: { blurred?: HTMLElement | null; focused: Element[] } }).__ctpoKeyboard;
      state.blurred?.focus({ focusVisible: true } as FocusOptions);
      delete state.blurred;
      // The focus given back is not a step of the walk.
      state.focused.length = 0;
    }, undefined);
  }
}

const CLICK_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'dblclick', 'pointerdown', 'pointerup']);
const KEY_EVENTS = new Set(['keydown', 'keyup', 'keypress']);

/**
 * Elements with a click (or mouse press) listener that the keyboard cannot work: not focusable, or
 * focusable but no native control and with no key listener on it or above it. Listeners on the
 * page itself (delegation) and on elements that hold or sit in a control are the control's.
 */
async function clickOnlyElements(devtools: CDPSession, world: PageWorld, max: number): Promise<ElementFact[]> {
  const group = 'ctpo-page-checks';
  try {
    // The listeners are listed from the page's own world, which DevTools reports them for; listing is
    // the browser's own work, which the page's scripts cannot change.
    const { result } = await devtools.send('Runtime.evaluate', { expression: 'document', objectGroup: group });
    if (result.objectId === undefined) return [];
    const { listeners } = await devtools.send('DOMDebugger.getEventListeners', { objectId: result.objectId, depth: -1, pierce: false });
    const clicked = new Set<number>();
    const keyed = new Set<number>();
    let keysOnPage = false;
    for (const listener of listeners) {
      if (KEY_EVENTS.has(listener.type)) {
        if (listener.backendNodeId === undefined) keysOnPage = true;
        else keyed.add(listener.backendNodeId);
      }
      if (CLICK_EVENTS.has(listener.type) && listener.backendNodeId !== undefined) clicked.add(listener.backendNodeId);
    }
    // Window's listeners are not in the document's list.
    const { result: windowObject } = await devtools.send('Runtime.evaluate', { expression: 'window', objectGroup: group });
    if (windowObject.objectId !== undefined) {
      const { listeners: onWindow } = await devtools.send('DOMDebugger.getEventListeners', { objectId: windowObject.objectId });
      if (onWindow.some((listener) => KEY_EVENTS.has(listener.type))) keysOnPage = true;
    }
    if (clicked.size === 0) return [];
    const mark = async (backendNodeId: number, list: string) => {
      const objectId = await world.resolveNode(backendNodeId, group);
      if (objectId === undefined) return;
      await devtools.send('Runtime.callFunctionOn', {
        objectId,
        functionDeclaration: `function () { const marks = (window.__ctpoListeners ??= { click: [], key: [] }); marks[${JSON.stringify(list)}].push(this); }`,
      });
    };
    for (const id of [...clicked].slice(0, max)) await mark(id, 'click');
    for (const id of [...keyed].slice(0, max * 2)) await mark(id, 'key');
    return await world.evaluate((keysOnPageToo: boolean) => {
      const marks = (window as unknown as { __ctpoListeners?: { click: Element[]; key: Element[] } }).__ctpoListeners ?? { click: [], key: [] };
      delete (window as unknown as { __ctpoListeners?: unknown }).__ctpoListeners;
      const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
      const CONTROL = 'a[href], area[href], button, input, select, textarea, summary, label, option, audio[controls], video[controls], iframe, details';
      const keyed = new Set(marks.key);
      const found: ElementFact[] = [];
      for (const element of new Set(marks.click)) {
        if (!(element instanceof HTMLElement) || element === document.body || element === document.documentElement) continue;
        if (!element.checkVisibility({ visibilityProperty: true })) continue;
        if (element.matches(CONTROL) || element.closest(CONTROL) !== null || element.querySelector(`${CONTROL}, [tabindex]:not([tabindex^="-"])`) !== null) continue;
        if (element.tabIndex >= 0) {
          // Reachable, but Enter and Space do nothing on an element that is no control unless a key listener acts.
          let handled = keysOnPageToo || keyed.has(document as unknown as Element);
          for (let current: Element | null = element; current !== null && !handled; current = current.parentElement) handled = keyed.has(current);
          if (handled) continue;
        }
        const tag = (element.cloneNode(false) as Element).outerHTML.replace(/<\/[^>]*>$/, '');
        const html = oneLine(`${tag}${oneLine((element.textContent ?? '').slice(0, 400))}`);
        found.push({ html: html.length > 160 ? `${html.slice(0, 157)}...` : html, selector: element.id !== '' ? `#${CSS.escape(element.id)}` : element.tagName.toLowerCase() });
      }
      return found;
    }, keysOnPage);
  } finally {
    await devtools.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch(() => undefined);
  }
}
