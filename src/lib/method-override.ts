/**
 * `X-Http-Method-Override` (docs/conventions.md): the MDClub SDK's `methodOverride` option sends PATCH and
 * PUT as POST, and DELETE as GET, naming the real method in this header. Applied before routing, since the
 * route is chosen by the method; only those three methods can be asked for.
 */
const OVERRIDABLE: Record<string, readonly string[]> = { POST: ["PATCH", "PUT", "DELETE"], GET: ["DELETE"] };

export function overrideMethod(request: Request): Request {
  const wanted = request.headers.get("x-http-method-override")?.trim().toUpperCase();
  if (!wanted || !OVERRIDABLE[request.method]?.includes(wanted)) return request;
  return new Request(request, { method: wanted });
}
