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
  'finding.doc.page-list': '{count, plural, one {page {pages}} other {pages {pages}}}{more, plural, =0 {} other { and # more}}',
  'finding.doc.chart-no-alt':
    '{count, plural, one {# chart or SmartArt graphic has} other {# charts or SmartArt graphics have}} no alternative text ({names}), so screen reader users miss what {count, plural, one {it shows} other {they show}}. Right-click it, choose Edit Alt Text and describe what it shows (the trend or the steps, not only its title).',
  'finding.doc.heading-skip':
    '{type, select, pdf {In this PDF} other {In this Word file}}, {from, plural, =0 {the first heading is level {to}, not level 1} other {the headings skip from level {from} to level {to}}}{count, plural, one {} other { ({count} places)}}, so screen reader users who move by heading think a section is missing. {type, select, pdf {Use the heading levels in order in the source file (Heading 1, then Heading 2...) and export it again, or change the tags in Acrobat\'s Tags panel.} other {Give each heading the next level down (Heading 1, then Heading 2...) in the Styles gallery.}}',
  'finding.doc.table-no-header-row':
    '{count, plural, one {# table has} other {# tables have}} no header row, so screen readers cannot say which column a cell belongs to. Click in the first row, then Table Design > Header Row and Layout > Repeat Header Rows; Word\'s Check Accessibility lists each table.',
  'finding.doc.slide-reading-order':
    'On slide {slide, number}, screen readers meet other content before the slide\'s title, so students do not know which slide they are on. In Home > Arrange > Selection Pane (or Review > Check Accessibility > Reading Order), move the title to the top of the reading order.',
  'finding.doc.invalid-language':
    '{type, select, pdf {This PDF} word {This Word file} other {This PowerPoint file}} sets {count, plural, one {a language that is not a valid language tag} other {languages that are not valid language tags}} ({tags}), so screen readers cannot pick the right voice. Set the language from the program\'s list (Review > Language), e.g. "en-CA", and export or upload it again.',
  'finding.doc.pdf-figure-no-alt':
    '{count, plural, one {# figure or formula has} other {# figures and formulas have}} no alternative text ({pages}), so screen reader users skip {count, plural, one {it} other {them}}. Add alt text in the source file (Word: right-click > Edit Alt Text) and export it again, or in Acrobat use Accessibility > Set Alternate Text.',
  'finding.doc.pdf-table-no-headers':
    '{count, plural, one {# table has} other {# tables have}} no header cells ({pages}), so screen readers cannot say which row or column a cell belongs to. Mark the header row in the source file (Word: Table Design > Header Row, Repeat Header Rows) and export again, or change the cells to TH in Acrobat\'s Tags panel.',
  'finding.doc.pdf-untagged-content':
    'Text on {count, plural, one {# page} other {# pages}} ({pages}) is outside the PDF\'s tags, so screen readers skip it. Export the PDF again from its source file with tagging on; in Acrobat, tag the missed text with the Reading Order tool, or mark it as background if it is decoration.',
  'finding.doc.pdf-link-no-description':
    '{count, plural, one {# link} other {# links}} ({pages}): {untagged, plural, =0 {no description a screen reader can read, only an address or nothing} other {not tagged as a link, or no description a screen reader can read}}. Give each link meaningful text in the source file and export it again, or in Acrobat add a Link tag and its alternate text in the Tags panel.',
  'finding.doc.pdf-field-no-name':
    '{count, plural, one {# form field has} other {# form fields have}} no name a screen reader can read ({pages}), so students do not know what to type. In Acrobat, open each field\'s Properties and fill in its Tooltip.',
  'finding.doc.pdf-title-not-shown':
    'This PDF has a title, but it is set to show its file name in the title bar, so screen readers announce the file name. In Acrobat, File > Properties > Initial View: show the Document Title; Word and LibreOffice do this when the title is set before exporting.',
  'finding.doc.pdf-encryption-blocks-at':
    'This PDF\'s security settings stop screen readers from reading its text. Save it without security, or allow "text access for screen reader devices" in its permissions, and upload it again.',
  'finding.doc.pdf-xfa':
    'This PDF is a dynamic XFA form: most PDF readers, in the browser and on phones, show only a "please wait" message, and screen readers get nothing. Make the form again as a standard PDF form (Acrobat: Prepare Form) or as a Brightspace quiz or survey.',
  'finding.doc.pdf-font-not-embedded':
    '{count, plural, one {# font is} other {# fonts are}} not embedded in this PDF ({names}), so readers that lack {count, plural, one {it} other {them}} show other letters, or the wrong ones. Export the PDF again with fonts embedded (Word: Options > "Embed fonts in the file"; Acrobat: Preflight > Embed missing fonts).',
  'finding.doc.pdf-text-unmapped':
    'Text on {count, plural, one {# page} other {# pages}} ({pages}) does not map to real characters, so screen readers read it as gibberish and searching it finds nothing. Export the PDF again from its source file with another font, or run text recognition (OCR) on those pages in Acrobat.',
  'finding.doc.not-fully-checked':
    'CTPO could not check all of this PDF: {reason, select, depth {its tags are nested deeper than any authoring program writes} size {its tags or resources are far larger than any authoring program writes} cycle {its tags loop back on themselves} other {its internal structure could not be read}}, so some of its tags, fonts and form fields were not checked. Check it with Acrobat\'s Accessibility Checker; exporting it again from its source file usually repairs it.',
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
  'finding.doc.limit-reached':
    "{limit, select, slides {This presentation lists {total, number} slides; CTPO read the first {max, number}} pages {This PDF has {total, number} pages; CTPO read the first {max, number}} other {This file’s XML is nested more than {max, number} levels deep, deeper than Word or PowerPoint ever write; CTPO read it down to that depth}}, so the rest was not checked.",
  'finding.limit.findings':
    "…and {count, number} more {cap, select, check {findings of “{check}”} other {findings}} here, not listed: a report lists at most {max, number} {cap, select, check {of one kind} other {findings}} for one page or file.",
  'finding.limit.page-requests':
    "This page asked for more than {max, number} files; CTPO refused the other {refused, number} and checked the page as it stood without them.",
} as const satisfies Record<string, string>;
