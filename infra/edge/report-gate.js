import cf from 'cloudfront';
const kvs = cf.kvs();

// The reports behaviour's viewer-request function (CloudFront Functions, JavaScript runtime 2.0):
// a report is served only through a link whose capability checks out, in exactly the format of
// api/http/report-capability.ts:
//
//   /reports/<keyId>.<expires>.<issued>.<owner>.<hex HMAC-SHA256>/<filename>.(html|json|csv)
//
// The key's text is read from the function's KeyValueStore under `report-key-<keyId>`, and the
// Unix second up to which the link's owner ended their links, if they did, under
// `report-revoked-<owner>`. A link that claims more than an hour of life is refused: none is signed. A good link
// is rewritten to the object's key in the bucket (`/reports/<filename>.<ext>`), so every link to one
// report shares one cache entry; anything else gets a 403 page that says how to get a fresh link.
// Written in ES5 style plus async/await: the runtime is ES5.1 with only parts of ES6-12.
var crypto = require('crypto');

var PATH = /^\/reports\/([a-z0-9]{1,16})\.([1-9][0-9]{0,10})\.([1-9][0-9]{0,10})\.([0-9a-f]{16})\.([0-9a-f]{64})\/([a-z0-9][a-z0-9-]{0,199})\.(html|json|csv)$/;
var MAX_LIFETIME_SECONDS = 3600;
var CLOCK_SKEW_MS = 60000;

function sameText(a, b) {
  if (a.length !== b.length) return false;
  var difference = 0;
  for (var i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function refuse(expired) {
  var title = expired ? 'This report link has expired' : 'This report link is not valid';
  var body =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>' + title + '</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1b1b1b}</style></head>' +
    '<body><h1>' + title + '</h1><p>Report links work for a limited time. Open the report again from CTPO: ' +
    'sign in, find the run in the job monitor and choose View HTML Output.</p></body></html>';
  return {
    statusCode: 403,
    statusDescription: 'Forbidden',
    headers: {
      'content-type': { value: 'text/html; charset=utf-8' },
      'cache-control': { value: 'no-store' },
      'content-security-policy': { value: "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" },
      'referrer-policy': { value: 'no-referrer' },
      'x-content-type-options': { value: 'nosniff' }
    },
    body: { encoding: 'text', data: body }
  };
}

async function handler(event) {
  var request = event.request;
  var match = PATH.exec(request.uri);
  if (match === null) return refuse(false);
  var keyId = match[1];
  var expires = match[2];
  var issued = match[3];
  var owner = match[4];
  var signature = match[5];
  var filename = match[6];
  var key;
  try {
    key = await kvs.get('report-key-' + keyId);
  } catch (missing) {
    return refuse(false);
  }
  if (typeof key !== 'string' || key.length < 32) return refuse(false);
  var expected = crypto.createHmac('sha256', key).update('ctpo-report-v2\n' + keyId + '\n' + expires + '\n' + issued + '\n' + owner + '\n' + filename).digest('hex');
  if (!sameText(expected, signature)) return refuse(false);
  if (Number(expires) - Number(issued) > MAX_LIFETIME_SECONDS) return refuse(false);
  if (Date.now() >= Number(expires) * 1000 || Date.now() < Number(issued) * 1000 - CLOCK_SKEW_MS) return refuse(true);
  var revoked;
  try {
    revoked = await kvs.get('report-revoked-' + owner);
  } catch (none) {
    revoked = undefined;
  }
  if (revoked !== undefined && Number(issued) <= Number(revoked)) return refuse(false);
  request.uri = '/reports/' + filename + '.' + match[7];
  // The capability is the whole permission; nothing else from the viewer goes to the bucket.
  request.querystring = {};
  return request;
}
