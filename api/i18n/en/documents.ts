// English texts of the document checks (PDF, Word, PowerPoint) and of the reasons a document could
// not be read. `type` is one of pdf, word, powerpoint.
export const documents = {
  'finding.doc.pdf-untagged':
    'This PDF has no tags, so screen readers cannot tell its headings, lists and tables from plain text. Export it again from its source with tagging turned on ("Tagged PDF" in Word and LibreOffice), or add tags in Acrobat.',
  'finding.doc.pdf-scanned':
    '{count, plural, one {# page} other {# pages}} of {pages, number} carry no text, only images: this PDF looks like a scan, which screen readers cannot read and students cannot search. Upload a PDF exported from the source file, or run text recognition (OCR) on it.',
  'finding.doc.no-title':
    '{type, select, pdf {This PDF} word {This Word file} other {This PowerPoint file}} has no title in its properties, so screen readers announce its file name instead. Set a title in File > Properties and upload it again.',
  'finding.doc.no-language':
    '{type, select, pdf {This PDF} word {This Word file} other {This PowerPoint file}} has no language set, so screen readers may read it with the wrong voice and pronunciation. Set the document language (Review > Language, or in the export settings) and upload it again.',
  'finding.doc.image-no-alt':
    '{count, plural, one {# image has} other {# images have}} no alternative text ({names}). Add a description in Alt Text, or mark the image as decorative if it adds nothing to the content.',
  'finding.doc.no-headings':
    'This Word file has {words, number} words but no headings, so screen reader users cannot jump between its sections. Apply the Heading 1, Heading 2... styles to its section titles.',
  'finding.doc.slide-no-title':
    'Slide {slide, number} has no title, so screen reader users cannot find it in the list of slides. Type its title in the slide\'s title placeholder (a text box does not count); if the title must not show, move it off the slide.',
  'finding.doc.placeholder': 'Placeholder text is still in this file: {examples}. Replace it with the real content and upload the file again.',
  'reason.document.password':
    'This {type, select, pdf {PDF} word {Word file} other {PowerPoint file}} is protected by a password, so CTPO could not open it. Check it by hand, or upload a copy without an opening password.',
  'reason.document.malformed':
    'This file could not be read as a {type, select, pdf {PDF} word {Word file} other {PowerPoint file}}: it may be damaged, or be another kind of file with the wrong extension. Open it to check, then upload it again.',
  'reason.document.too-large':
    'This {type, select, pdf {PDF} word {Word file} other {PowerPoint file}} is too large or too complex for CTPO to read within its limits. Check it by hand.',
  'reason.document.timeout':
    'Reading this {type, select, pdf {PDF} word {Word file} other {PowerPoint file}} took longer than {seconds, number} s, so CTPO stopped. Check it by hand.',
  'reason.document.crashed':
    'CTPO\'s document reader stopped while reading this {type, select, pdf {PDF} word {Word file} other {PowerPoint file}}. Check it by hand; if it happens again, tell the CTPO team.',
  'reason.document.linked': 'The file {name}, linked from this page: {problem}',
  'error.site.not-own-file': 'CTPO reads course files only from the Brightspace site itself, not from {host}.',
} as const satisfies Record<string, string>;
