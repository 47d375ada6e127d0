import { describe, expect, it } from 'vitest';
import { embedProviderOf } from '../../../api/extract/embeds.ts';

const of = (address: string) => embedProviderOf(new URL(address));

describe('embedProviderOf', () => {
  it('knows the embed forms the providers publish', () => {
    expect(of('https://www.youtube.com/embed/M7lc1UVf-VE')).toBe('youtube');
    expect(of('https://www.youtube-nocookie.com/embed/M7lc1UVf-VE?rel=0')).toBe('youtube');
    expect(of('https://youtu.be/M7lc1UVf-VE')).toBe('youtube');
    expect(of('https://player.vimeo.com/video/76979871?h=8272103f6e')).toBe('vimeo');
    expect(of('https://cdnapisec.kaltura.com/p/2503451/sp/250345100/embedIframeJs/uiconf_id/43036981/partner_id/2503451?entry_id=1_abc')).toBe('kaltura');
    expect(of('https://media.example.edu/p/102/embedPlaykitJs/uiconf_id/3/?iframeembed=true&entry_id=1_x')).toBe('kaltura');
    expect(of('https://example.h5p.com/content/1291234567890/embed')).toBe('h5p');
    expect(of('https://h5p.org/h5p/embed/617')).toBe('h5p');
    expect(of('https://blog.example.edu/wp-admin/admin-ajax.php?action=h5p_embed&id=3')).toBe('h5p');
    expect(of('https://moodle.example.edu/mod/hvp/embed.php?id=12')).toBe('h5p');
  });

  it('knows LTI launches: Brightspace launch and quicklink addresses, and an LTI 1.3 login initiation', () => {
    expect(of('https://school.brightspace.com/d2l/le/lti/6606/toolLaunch/12/1234?ou=6606')).toBe('lti');
    expect(of('https://school.brightspace.com/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=lti&rcode=abc-1')).toBe('lti');
    expect(of('https://tool.example.com/lti/login?iss=https%3A%2F%2Fschool.brightspace.com&login_hint=abc&target_link_uri=https%3A%2F%2Ftool.example.com%2Flaunch')).toBe('lti');
  });

  it('calls anything else another site', () => {
    expect(of('https://maps.example.org/embed?q=granite')).toBe('other');
    expect(of('https://notyoutube.com/embed/x')).toBe('other');
  });
});
