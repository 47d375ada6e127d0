// The QA API behaviours' viewer-request function (CloudFront Functions, JavaScript runtime 2.0).
// The API's Lambda functions sit behind function URLs that only this distribution may call (origin
// access control signs each request to them with SigV4, in the Authorization header), so:
//   - the viewer's bearer token moves to `x-ctpo-authorization`, which the functions read;
//   - the host the viewer used goes along in `x-ctpo-site-host`: the functions build report
//     addresses on it (their settings cannot name the distribution, which names them);
//   - the route table, wrong methods and CORS preflights are answered here, as the local server
//     answers them, since no API Gateway stands in front any more.
// DEV_ORIGINS is filled in at synth: empty unless the deployment trusts the developer origins.
var DEV_ORIGINS = [];
var TOKEN_HEADER = 'x-ctpo-authorization';
var SITE_HOST_HEADER = 'x-ctpo-site-host';
var JOB_STATUS_PREFIX = '/api/job-status/';
var JOB_PREFIX = '/api/jobs/';
var PROTOCOL_RUN_PREFIX = '/api/protocols/runs/';

// The methods each route takes, and its name in a message about a wrong method.
function routeOf(uri) {
  if (uri === '/api/toc' || uri === '/api/run-tests') return { name: uri, methods: ['POST'] };
  if (uri.indexOf(JOB_STATUS_PREFIX) === 0 && uri.length > JOB_STATUS_PREFIX.length && uri.indexOf('/', JOB_STATUS_PREFIX.length) === -1) return { name: '/api/job-status', methods: ['GET'] };
  if (uri === '/api/jobs') return { name: uri, methods: ['GET'] };
  if (uri.indexOf(JOB_PREFIX) === 0 && uri.length > JOB_PREFIX.length && uri.indexOf('/', JOB_PREFIX.length) === -1) return { name: '/api/jobs/{id}', methods: ['DELETE'] };
  if (uri === '/api/dismissals') return { name: uri, methods: ['GET', 'PUT', 'DELETE'] };
  if (uri === '/api/protocols') return { name: uri, methods: ['GET', 'PUT', 'DELETE'] };
  if (uri === '/api/report-links') return { name: uri, methods: ['DELETE'] };
  if (uri.indexOf(PROTOCOL_RUN_PREFIX) === 0 && uri.length > PROTOCOL_RUN_PREFIX.length && uri.indexOf('/', PROTOCOL_RUN_PREFIX.length) === -1) return { name: PROTOCOL_RUN_PREFIX, methods: ['GET', 'PUT', 'POST'] };
  return null;
}

function allowedOrigin(request) {
  var origin = request.headers.origin;
  if (origin === undefined) return null;
  return DEV_ORIGINS.indexOf(origin.value) === -1 ? null : origin.value;
}

function answer(request, statusCode, headers, body) {
  var origin = allowedOrigin(request);
  headers.vary = { value: 'Origin' };
  headers['cache-control'] = { value: 'no-store' };
  if (origin !== null) {
    headers['access-control-allow-origin'] = { value: origin };
    headers['access-control-allow-credentials'] = { value: 'true' };
  }
  var response = { statusCode: statusCode, headers: headers };
  if (body !== undefined) {
    headers['content-type'] = { value: 'application/json; charset=utf-8' };
    response.body = { encoding: 'text', data: JSON.stringify(body) };
  }
  return response;
}

function handler(event) {
  var request = event.request;
  var route = routeOf(request.uri);
  if (route === null) {
    return answer(request, 404, {}, { message: 'There is no API route ' + request.uri.slice(0, 200) + '.', code: 'not_found' });
  }
  if (request.method === 'OPTIONS') {
    if (allowedOrigin(request) === null) {
      return answer(request, 403, {}, { message: 'This site is not allowed to call the CTPO API.', code: 'forbidden' });
    }
    return answer(request, 204, {
      'access-control-allow-methods': { value: route.methods.join(', ') + ', OPTIONS' },
      'access-control-allow-headers': { value: 'authorization, content-type, accept' },
      'access-control-max-age': { value: '600' }
    });
  }
  if (route.methods.indexOf(request.method) === -1) {
    var methods = route.methods.join(', ');
    return answer(request, 405, { allow: { value: methods + ', OPTIONS' } }, { message: route.name + ' accepts ' + methods + ' only.', code: 'method_not_allowed' });
  }
  var headers = request.headers;
  delete headers[TOKEN_HEADER];
  delete headers[SITE_HOST_HEADER];
  if (headers.host !== undefined) headers[SITE_HOST_HEADER] = { value: headers.host.value };
  if (headers.authorization !== undefined) {
    headers[TOKEN_HEADER] = { value: headers.authorization.value };
    delete headers.authorization;
  }
  return request;
}
