// The Content-Security-Policy every HTML report is served with, by the local server and by
// CloudFront alike (infra/lib/site.ts): one value, so the two cannot drift apart. A report is one file
// with inline styles and no script (its filters are CSS). The sandbox gives it an opaque origin
// besides, so even a report that went wrong could not reach the app's tokens on the same origin;
// its links still open in a new tab.
export const REPORT_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  'sandbox allow-popups allow-popups-to-escape-sandbox',
].join('; ');
