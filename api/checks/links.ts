// Link checks: what a link's probe result means for the course (broken, unreachable, redirected,
// unverifiable), and what needs no request at all (insecure http, links into another course).
import { msg } from '../i18n/messages.ts';
import type { LinkProbe } from '../net/link-checker.ts';
import { orgUnitOf } from '../brightspace/item-urls.ts';
import { finding } from './catalogue.ts';
import type { Finding } from './finding.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import { softNotFound } from './soft-404.ts';
import { fragmentFound, isClientStateFragment, type FragmentReference, type LinkOccurrence, type OtherSchemeLink } from '../extract/html.ts';

/** Findings that need no request: an address into another course, plain http on an https course. */
export function staticLinkFindings(link: LinkOccurrence, place: ItemPlace, siteOrigin: URL, orgUnitId: number): Finding[] {
  if (link.url === null) {
    const message = link.problem === 'local-file' ? msg('finding.link.local-file', { address: link.raw }) : msg('finding.link.invalid-address', { address: link.raw });
    return [finding('link.broken', place, link.raw, message, linkDetails(link))];
  }
  const url = new URL(link.url);
  const findings: Finding[] = [];
  const other = orgUnitOf(url, siteOrigin);
  if (other !== null && other !== orgUnitId) {
    findings.push(finding('link.cross-course', place, link.url, msg('finding.link.cross-course', { orgUnitId: String(other) }), linkDetails(link)));
  }
  if (url.protocol === 'http:' && siteOrigin.protocol === 'https:') {
    findings.push(finding('link.insecure', place, link.url, msg(link.embedded ? 'finding.link.insecure-embedded' : 'finding.link.insecure'), linkDetails(link)));
  }
  return findings;
}

/** An address an unreadable topic opens (a quicklink, a tool): a finding when it leads into another course or org unit. */
export function openedAddressFindings(address: string, place: ItemPlace, siteOrigin: URL, orgUnitId: number): Finding[] {
  const other = orgUnitOf(new URL(address), siteOrigin);
  if (other === null || other === orgUnitId) return [];
  return [finding('link.cross-course', place, address, msg('finding.link.topic-cross-course', { orgUnitId: String(other) }), { element: 'topic', subject: address })];
}

/** Findings from the probe of one address, for one place it appears. */
export function probeFindings(link: LinkOccurrence & { url: string }, probe: LinkProbe, place: ItemPlace): Finding[] {
  const details = linkDetails(link);
  // A form that only posts to its address: refusing a GET (405) shows the address exists.
  if (link.postOnly && probe.status === 405) return [];
  switch (probe.outcome) {
    case 'broken':
      return [finding('link.broken', place, link.url, probe.detail, details)];
    case 'unreachable':
      return [finding('link.unreachable', place, link.url, probe.detail, details)];
    case 'unverifiable':
      return [finding('link.unverifiable', place, link.url, probe.detail, details)];
    case 'ok': {
      // A page in disguise: the site's "not found" page, or where it sends addresses it does not have.
      const kind = probe.lookalike === undefined ? null : softNotFound(probe.lookalike.page, probe.lookalike.missing);
      if (kind !== null) return [finding('link.soft-404', place, link.url, msg('finding.link.soft-404', { kind: kind.replace('-', '_'), to: probe.lookalike!.page.url }), details)];
      return probe.movedTo === null ? [] : [finding('link.redirect', place, link.url, msg('finding.link.moved', { to: probe.movedTo }), details)];
    }
  }
}

/** Where the author finds a link: its element, the text or alt they see, how often it occurs. */
export function linkDetails(link: LinkOccurrence): Partial<Finding> {
  const details: Partial<Finding> = { element: link.element, subject: link.url ?? link.raw };
  if (link.text !== undefined && link.text !== '') details.linkText = link.text;
  if (link.count !== undefined && link.count > 1) details.count = link.count;
  if (link.page !== undefined) details.page = link.page;
  return details;
}

/** A mailto: link whose address is not a valid e-mail address. */
export function mailtoFindings(link: OtherSchemeLink, place: ItemPlace): Finding[] {
  if (link.scheme !== 'mailto' || link.valid) return [];
  const details: Partial<Finding> = { element: link.element, subject: link.raw };
  if (link.text) details.linkText = link.text;
  return [finding('link.mailto-invalid', place, link.raw, msg('finding.link.mailto-invalid', { address: link.raw }), details)];
}

/**
 * Fragments that name no place in the target page. `anchors` are the target's ids and names;
 * fragments that are state for the page's scripts are never reported.
 */
export function fragmentFindings(url: string, fragments: FragmentReference[], anchors: Set<string>, place: ItemPlace, samePage: boolean): Finding[] {
  return fragments
    .filter((reference) => !isClientStateFragment(reference.fragment) && !fragmentFound(reference.fragment, anchors))
    .map((reference) => {
      const address = `${url}#${reference.fragment}`;
      const details: Partial<Finding> = { element: reference.element, subject: address };
      if (reference.text) details.linkText = reference.text;
      if (reference.count !== undefined && reference.count > 1) details.count = reference.count;
      const message = msg(samePage ? 'finding.link.fragment-missing-here' : 'finding.link.fragment-missing', { fragment: reference.fragment });
      return finding('link.fragment-missing', place, address, message, details);
    });
}
