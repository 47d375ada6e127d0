// Who provides an embedded frame or a tool, from its address alone, by the embed address forms the
// providers publish: YouTube (youtube.com/embed/ID, youtube-nocookie.com/embed/ID, youtu.be/ID,
// watch?v=ID), Vimeo (player.vimeo.com/video/ID, vimeo.com/ID), Kaltura (its players under
// /p/{partnerId}/..., KMC and MediaSpace embeds, on kaltura.com or a MediaSpace host), H5P (h5p.com
// content /embed, h5p.org's /h5p/embed/ID, WordPress's admin-ajax.php?action=h5p_embed and Moodle's
// mod/hvp/embed.php and mod/h5pactivity), and LTI tools (Brightspace's LTI launch and quicklink
// addresses, and an LTI 1.3 launch: an OIDC login initiation with iss, login_hint and
// target_link_uri).

export const EMBED_PROVIDERS = ['youtube', 'vimeo', 'kaltura', 'h5p', 'lti', 'other'] as const;
export type EmbedProvider = (typeof EMBED_PROVIDERS)[number];

const host = (url: URL) => url.hostname.toLowerCase().replace(/^www\./, '');
const under = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`);

function isLti(url: URL): boolean {
  const path = url.pathname.toLowerCase();
  if (/^\/d2l\/le\/lti\//.test(path) || /^\/d2l\/lms\/lti\//.test(path)) return true;
  if (/\/quicklink\/quicklink\.d2l$/.test(path) && url.searchParams.get('type')?.toLowerCase() === 'lti') return true;
  const params = url.searchParams;
  // LTI 1.3's third-party login initiation (the OIDC step every launch starts with).
  if (params.has('iss') && params.has('login_hint') && params.has('target_link_uri')) return true;
  return params.has('lti_message_type') || params.has('lti_message_hint');
}

/** The provider of an embedded address; `other` for any other site's page. */
export function embedProviderOf(url: URL): EmbedProvider {
  const name = host(url);
  const path = url.pathname;
  if (under(name, 'youtube.com') || under(name, 'youtube-nocookie.com') || name === 'youtu.be') return 'youtube';
  if (under(name, 'vimeo.com')) return 'vimeo';
  if (under(name, 'kaltura.com') || /^\/p\/\d+\/(sp\/\d+\/)?(embedIframeJs|embedPlaykitJs)\//i.test(path) || /\/embed\/secure\/iframe\/entryId\//i.test(path)) return 'kaltura';
  if (under(name, 'h5p.com') || under(name, 'h5p.org') || /\/mod\/(hvp\/embed\.php|h5pactivity\/)/i.test(path) || url.searchParams.get('action') === 'h5p_embed' || /\/h5p\/embed\/\d+/i.test(path)) return 'h5p';
  if (isLti(url)) return 'lti';
  return 'other';
}
