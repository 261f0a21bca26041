/**
 * The id that names a request in its response (`X-Request-Id`) and in every log line about it
 * (docs/decisions.md#request-ids-and-one-log-line-per-request). A client's own id is kept so that it can find its
 * request in the logs, and Cloudflare's `cf-ray` otherwise, so that the id matches Cloudflare's own records; either
 * is taken only when short and plain, since it is written into headers and logs as it came.
 */
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(headers: Headers): string {
  for (const name of ["x-request-id", "cf-ray"]) {
    const sent = headers.get(name)?.trim();
    if (sent && SANE.test(sent)) return sent;
  }
  return crypto.randomUUID();
}
