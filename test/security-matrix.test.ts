/**
 * The authorisation matrix: every operation of GET /api/openapi.json, called by anonymous, the content's author,
 * another user, an administrator and a disabled user, gets the access answer its document promises (`security`
 * means a login, `x-access` an administrator or the author), and no response, success or error, carries a field
 * the document marks restricted to anyone who may not see it, and each stays within its D1 round-trip budget. A new
 * route is covered without editing this file.
 */
import { describe, expect, it } from "vitest";
import { type ApiResponse, call } from "./helpers/api";
import { changedTables, comparable, snapshot } from "./helpers/db-state";
import {
  type Access,
  documentAtCollection,
  fillPath,
  type Json,
  type Operation,
  operations,
  restrictedFields,
  sampleBody,
} from "./helpers/openapi-doc";
import { buildWorld, type World } from "./helpers/world";

const doc = await documentAtCollection();
const restricted = restrictedFields(doc);

type Role = "anonymous" | "disabled" | "other" | "user" | "admin";
/** Those who may not act go first, so each refusal meets the world untouched (not an item already deleted). */
const ROLES: Role[] = ["anonymous", "disabled", "other", "user", "admin"];

const LOGIN_REQUIRED = 201001;
const ADMIN_REQUIRED = 201002;

interface Viewer {
  id: number | null;
  admin: boolean;
}

function caller(world: World, role: Role): { token?: string; viewer: Viewer } {
  switch (role) {
    case "anonymous":
      return { viewer: { id: null, admin: false } };
    // The token exists but its user is disabled: it must count as no login at all.
    case "disabled":
      return { token: world.disabled.token, viewer: { id: null, admin: false } };
    default:
      return { token: world[role].token, viewer: { id: world[role].user_id, admin: role === "admin" } };
  }
}

/** Whether the document refuses this role the operation. */
function refused(access: Access, role: Role): boolean {
  if (access === "public" || role === "admin") return false;
  if (role === "anonymous" || role === "disabled") return true;
  return access === "admin" || (access === "author" && role === "other");
}

/** What the access rule says about this role, or null when the answer is right. */
function accessProblem(access: Access, role: Role, res: ApiResponse): string | null {
  const code: unknown = res.body?.code;
  const expectCode = (expected: number, status: number) =>
    code === expected && res.status === status ? null : `expected ${status} ${expected}, got ${res.status} ${code}`;
  const granted = () => (code === LOGIN_REQUIRED || code === ADMIN_REQUIRED ? `refused with ${code}` : null);
  if (access === "public") return granted();
  if (role === "anonymous" || role === "disabled") return expectCode(LOGIN_REQUIRED, 401);
  if (role === "admin") return granted();
  if (access === "admin") return expectCode(ADMIN_REQUIRED, 403);
  if (access === "author" && role === "other") {
    // The author's own refusal codes (202002 ...), never the generic access ones.
    const refused = res.status === 403 && ![0, LOGIN_REQUIRED, ADMIN_REQUIRED].includes(code as number);
    return refused ? null : `expected 403 not-the-author, got ${res.status} ${code}`;
  }
  // The author under permissive site rules: the operation goes through.
  if (access === "author") return code === 0 ? null : `expected 0 for the author, got ${res.status} ${code}`;
  return granted();
}

/** Names restricted on some record but plain on another (a question's `update_time`): judged on user records only. */
const plainSomewhere = new Set(
  Object.values(doc.components.schemas as Record<string, Json>).flatMap((schema) =>
    Object.entries((schema.properties ?? {}) as Record<string, Json>)
      .filter(([, property]) => !String(property.description ?? "").startsWith("restricted:"))
      .map(([name]) => name),
  ),
);

/** Every restricted field in the body that the viewer may not see, by its JSON path. */
function leaks(body: Json, viewer: Viewer): string[] {
  const found: string[] = [];
  const walk = (value: Json, path: string) => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${path}[${i}]`);
      return;
    }
    if (!value || typeof value !== "object") return;
    const isUser = "user_id" in value && "username" in value;
    const owner = viewer.id !== null && value.user_id === viewer.id;
    for (const [key, child] of Object.entries(value as Record<string, Json>)) {
      const judged = !plainSomewhere.has(key) || isUser;
      if (judged && restricted.adminOnly.has(key) && !viewer.admin) found.push(`${path}.${key}`);
      if (judged && restricted.ownerOrAdmin.has(key) && !owner && !viewer.admin) found.push(`${path}.${key}`);
      // A member's private-message fields are theirs alone: administrators included (docs/messages.md#privacy).
      if (judged && restricted.ownerOnly.has(key) && !owner) found.push(`${path}.${key}`);
      walk(child, `${path}.${key}`);
    }
  };
  walk(body, "$");
  return found;
}

/**
 * D1 round trips (docs/performance.md#one-round-trip): a read costs one, a write two. The disabled user's token names
 * its holder, whom D1 then refuses: the request is served again for nobody, at one more.
 */
function roundTripBudget(operation: Operation, role: Role): number {
  const budget = operation.method === "GET" ? 1 : 2;
  return role === "disabled" ? budget + 1 : budget;
}

function request(operation: Operation, world: World, token: string | undefined) {
  // Required parameters get a sample value, so that the operation runs rather than fail validation.
  const required = Object.fromEntries(operation.requiredQuery.map((name) => [name, `sample ${name}`]));
  const query = { ...required, ...(operation.includes.length && { include: operation.includes.join(",") }) };
  const body = operation.jsonBody ? sampleBody(doc, operation.jsonBody, world) : undefined;
  return call(operation.method, fillPath(operation, world), { token, query, body });
}

const cases = operations(doc).map((operation) => [`${operation.method} ${operation.path}`, operation] as const);

describe("the document", () => {
  it("describes operations of every access kind, so the matrix below tests something", () => {
    const kinds = new Set(cases.map(([, operation]) => operation.access));
    expect([...kinds].sort()).toEqual(["admin", "author", "login", "public"]);
    expect(restricted.ownerOrAdmin).toContain("email");
    expect(restricted.adminOnly).toContain("delete_time");
    expect(restricted.adminOnly).toContain("smtp_password");
    expect(restricted.ownerOnly).toEqual(new Set(["inbox_unread", "inbox_accept", "inbox_email"]));
  });

  it("flags a restricted field in front of anyone but its owner, so no leaks below means something", async () => {
    const world = await buildWorld();
    const own = await call("GET", "/api/user", { token: world.user.token });
    expect(leaks(own.body, { id: world.user.user_id, admin: false })).toEqual([]);
    expect(leaks(own.body, { id: world.other.user_id, admin: false })).toEqual(
      expect.arrayContaining(["$.data.email", "$.data.notification_unread", "$.data.last_login_time"]),
    );
    expect(leaks(own.body, { id: world.admin.user_id, admin: true })).toEqual([
      "$.data.inbox_unread",
      "$.data.inbox_accept",
      "$.data.inbox_email",
    ]);
  });
});

describe.each(cases)("%s", (_name, operation) => {
  it(`answers each role as "${operation.access}" says, refuses without writing, hides restricted fields`, async () => {
    const world = await buildWorld();
    const problems: string[] = [];
    // The refused roles come first in ROLES: one look at the database after the last of them tells if any wrote.
    const refusedRoles = ROLES.filter((role) => refused(operation.access, role));
    const untouched = comparable(await snapshot());
    for (const role of ROLES) {
      const { token, viewer } = caller(world, role);
      const res = await request(operation, world, token);
      const where = `${role}: `;
      if (role === refusedRoles.at(-1)) {
        const written = changedTables(untouched, comparable(await snapshot()));
        if (written.length) problems.push(`refused (${refusedRoles.join(", ")}), yet wrote to ${written.join(", ")}`);
      }
      if (res.status >= 500) problems.push(`${where}status ${res.status} ${JSON.stringify(res.body)}`);
      const budget = roundTripBudget(operation, role);
      if (!(res.roundTrips <= budget)) problems.push(`${where}${res.roundTrips} D1 round trips, budget ${budget}`);
      const access = accessProblem(operation.access, role, res);
      if (access) problems.push(where + access);
      for (const path of leaks(res.body, viewer)) problems.push(`${where}leaks ${path}`);
    }
    expect(problems).toEqual([]);
  });
});
