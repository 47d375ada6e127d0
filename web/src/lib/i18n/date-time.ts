// How the app writes a moment: in the reader's own time zone (the browser's), with the zone named,
// so that a run started at 14:05 in Toronto never reads as 19:05 without a word.
export const DATE_AND_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};
