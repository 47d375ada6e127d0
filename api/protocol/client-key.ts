// Which protocol a run's client label finds: the same label in any case, width or spacing ("Demo
// College", "demo  college") is the same client, as a person reading Recent runs would take it.
export function clientKeyOf(client: string): string {
  return client.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}
