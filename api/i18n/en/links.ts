// English texts of the link findings that need no request or read the target itself: local files,
// e-mail links, fragments, and links to items of this course that are missing or hidden.
export const links = {
  'finding.link.local-file': '"{address}" points at a file on a computer, not on the web, so students cannot open it. Upload the file to the course and link to it there.',
  'finding.link.mailto-invalid': '"{address}" is not a valid e-mail link: students get an empty or wrong message. Correct the e-mail address.',
  'finding.link.fragment-missing': 'The page opens, but has no place called "#{fragment}" (no element with that id or name), so students land at its top. Point the link at an existing heading or anchor.',
  'finding.link.fragment-missing-here': 'This page has no place called "#{fragment}" (no element with that id or name), so the link goes nowhere. Point it at an existing heading or anchor, or add the anchor.',
  'finding.link.internal-missing': "This link opens {target, select, topic {a content topic} module {a content module} content {a content topic} quiz {a quiz} dropbox {an assignment} discuss {a discussion topic} discussforum {a discussion forum} checklist {a checklist} survey {a survey} selfassess {a self assessment} other {an item}} that does not exist in this course, so students get an error page. Point it at the item's current address.",
  'finding.link.internal-hidden': 'This link opens "{title}", which is hidden from students, so they get an error page. Make it visible or remove the link.',
} as const;
