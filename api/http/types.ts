// The framework-free shape of an HTTP exchange. The local server and the AWS Lambda handlers both
// translate their own request objects into these, so the same route code runs in both.

export interface ApiRequest {
  /** Upper-case method, e.g. 'GET'. */
  method: string;
  /** The path without the query string, percent-encoding kept, e.g. '/api/job-status/abc%3A1'. */
  path: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The query string, parsed. Empty when there is none. */
  query?: URLSearchParams;
  /**
   * The body as text. An adapter that stops reading at a size limit passes what it read, which is
   * then over the limit: the route answers 413 without the adapter having to.
   */
  body?: string;
  /** Aborted when the client goes away, where the runtime can tell. */
  signal?: AbortSignal;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type ApiHandler = (request: ApiRequest) => Promise<ApiResponse>;
