// The addresses CSS makes a browser load: `url()` and `image-set()` images, fonts and cursors, and
// the `@import`s a browser honours (only those before any other rule). Read with css-tree's
// parser, so comments, strings that merely contain "url(", escapes and quoting are as a browser
// sees them; `@namespace` names and in-document references (`url(#filter)`) are not addresses.
import type { CssNode, WalkContext } from 'css-tree';
import parse from 'css-tree/parser';
import walk from 'css-tree/walker';

export interface CssReference {
  /** The address as the CSS means it (escapes decoded, quotes removed). */
  raw: string;
  rule: 'url()' | '@import';
}

const IMAGE_SET = new Set(['image-set', '-webkit-image-set']);
// Rules that may come before @import without making it ignored.
const BEFORE_IMPORT = new Set(['charset', 'layer']);

function isAddress(value: string): boolean {
  const trimmed = value.trim();
  return trimmed !== '' && !trimmed.startsWith('#');
}

/** Addresses in a value or a rule other than @import: url() tokens and image-set() strings. */
function collectUrls(node: CssNode, into: CssReference[]): void {
  function enter(this: WalkContext, child: CssNode): symbol | undefined {
    if (child.type === 'Atrule' && child.name.toLowerCase() === 'namespace') return walk.skip;
    if (child.type === 'Url' && isAddress(child.value)) into.push({ raw: child.value.trim(), rule: 'url()' });
    if (child.type === 'String' && this.function !== null && IMAGE_SET.has(this.function.name.toLowerCase()) && isAddress(child.value)) {
      into.push({ raw: child.value.trim(), rule: 'url()' });
    }
    return undefined;
  }
  walk(node, { enter });
}

function importAddress(prelude: CssNode | null): string | null {
  if (prelude === null || prelude.type !== 'AtrulePrelude') return null;
  const first = prelude.children.first;
  if (first?.type === 'String' || first?.type === 'Url') return first.value.trim() === '' ? null : first.value.trim();
  return null;
}

/** The addresses of a whole stylesheet (a `<style>` element or a .css file), in order. */
export function stylesheetReferences(css: string): CssReference[] {
  const sheet = parse(css, { positions: false, parseCustomProperty: true });
  const references: CssReference[] = [];
  if (sheet.type !== 'StyleSheet') return references;
  let importsAllowed = true;
  sheet.children.forEach((rule) => {
    if (rule.type === 'Atrule') {
      const name = rule.name.toLowerCase();
      if (name === 'import') {
        // A browser ignores an @import that follows any other rule.
        const address = importsAllowed ? importAddress(rule.prelude) : null;
        if (address !== null) references.push({ raw: address, rule: '@import' });
        return;
      }
      if (name === 'namespace') return;
      if (!(BEFORE_IMPORT.has(name) && rule.block === null)) importsAllowed = false;
    } else {
      importsAllowed = false;
    }
    collectUrls(rule, references);
  });
  return references;
}

/** The addresses of a `style` attribute (declarations only; @import has no meaning there). */
export function styleAttributeReferences(declarations: string): CssReference[] {
  if (!/url\(|image-set/i.test(declarations)) return [];
  const references: CssReference[] = [];
  collectUrls(parse(declarations, { context: 'declarationList', positions: false, parseCustomProperty: true }), references);
  return references;
}
