// Which axe-core rules run on a topic, and the shape of what the axe worker reports. Kept apart from
// accessibility.ts so the worker loads nothing it does not need.

/** What the axe worker sends back for one rule that failed. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** A few of the failing elements' HTML, shortened. */
  examples: string[];
  count: number;
}

/** The tags whose rules run: WCAG 2.x A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * Rules left out. Page-level rules judge the whole Brightspace page, not a topic inside it; some
 * rules need layout or a real browser, which jsdom does not have (axe-core issues #595, #4021);
 * captions are our own media.no-captions; deprecated rules are replaced by others.
 */
export const AXE_EXCLUDED_RULES: readonly string[] = [
  // page level
  'bypass', 'document-title', 'html-has-lang', 'html-lang-valid', 'html-xml-lang-mismatch', 'region',
  'page-has-heading-one', 'meta-viewport', 'meta-viewport-large', 'meta-refresh', 'landmark-one-main',
  'landmark-banner-is-top-level', 'landmark-complementary-is-top-level', 'landmark-contentinfo-is-top-level',
  'landmark-main-is-top-level', 'landmark-no-duplicate-banner', 'landmark-no-duplicate-contentinfo',
  'landmark-no-duplicate-main', 'landmark-unique',
  // need a browser
  'color-contrast', 'color-contrast-enhanced', 'link-in-text-block', 'target-size', 'scrollable-region-focusable',
  'css-orientation-lock', 'avoid-inline-spacing', 'focus-order-semantics', 'frame-focusable-content', 'frame-tested',
  'hidden-content',
  // ours or deprecated
  'video-caption', 'audio-caption', 'duplicate-id', 'duplicate-id-active', 'aria-roledescription',
];
