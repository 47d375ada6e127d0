'use strict';
// Lambda@Edge, origin request, on the QA API's routes that take a body (POST, PUT). A Lambda function
// URL behind origin access control accepts a POST or PUT only with the SHA-256 of its body in `x-amz-content-sha256`
// (Lambda takes no unsigned payloads), and a CloudFront Function cannot read bodies: this adds
// the hash, so browsers and scripts send plain requests. Bodies over 1 MB arrive truncated and
// are refused here (the API takes at most 64 KiB).
const { createHash } = require('node:crypto');

exports.handler = async (event) => {
  const request = event.Records[0].cf.request;
  const body = request.body;
  if (body !== undefined && body.inputTruncated) {
    return {
      status: '413',
      statusDescription: 'Payload Too Large',
      headers: {
        'content-type': [{ key: 'Content-Type', value: 'application/json; charset=utf-8' }],
        'cache-control': [{ key: 'Cache-Control', value: 'no-store' }],
      },
      body: JSON.stringify({ message: 'The request is too large: at most 64 KiB of JSON is accepted.', code: 'payload_too_large' }),
    };
  }
  const data = body !== undefined && body.data ? Buffer.from(body.data, body.encoding === 'base64' ? 'base64' : 'utf8') : Buffer.alloc(0);
  request.headers['x-amz-content-sha256'] = [{ key: 'x-amz-content-sha256', value: createHash('sha256').update(data).digest('hex') }];
  return request;
};
