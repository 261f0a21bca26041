import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { get } from "./helpers/api";
import { type Json, loadDocument, operations } from "./helpers/openapi-doc";

describe("GET /api/openapi.json", () => {
  it("documents every route the app serves, with its method", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const served = createApp()
      // Stored files (/upload/..., /static/...) are served outside the API and its document, as are the document
      // itself and its reference page.
      .routes.filter(
        (r) => r.method !== "ALL" && r.path.startsWith("/api/") && !["/api/openapi.json", "/api/docs"].includes(r.path),
      )
      .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, "{$1}")}`)
      // The report routes read one segment, documented as the spec's template with its two parameters.
      .map((route) => route.replace("/api/reports/{target}", "/api/reports/{reportable_type}:{reportable_id}"))
      // A message's withdrawal is also served under /inbox, documented once (docs/messages.md#withdrawing-a-message).
      .map((route) => route.replace("DELETE /api/inbox/messages/{message_id}", "DELETE /api/messages/{message_id}"));
    expect(served.length).toBeGreaterThan(0);
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });
});

describe("the document for client generators (docs/decisions.md#the-openapi-document-is-written-for-client-generators)", () => {
  it("gives every operation an operationId of its own, a verb and a noun in camelCase", async () => {
    const ids = operations(await loadDocument()).map((operation) => operation.op.operationId as unknown);
    expect(ids.filter((id) => typeof id !== "string" || !/^[a-z]+[A-Z]?[A-Za-z]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it("keeps the names clients are generated with", async () => {
    const ids = new Map(operations(await loadDocument()).map((op) => [`${op.method} ${op.path}`, op.op.operationId]));
    expect(ids.get("GET /api/comments/{comment_id}")).toBe("getComment");
    expect(ids.get("GET /api/users/{user_id}/articles")).toBe("listUserArticles");
    expect(ids.get("GET /api/user/articles")).toBe("listMyArticles");
    expect(ids.get("POST /api/questions/{question_id}/answers")).toBe("createAnswer");
    expect(ids.get("POST /api/questions/{question_id}/voters")).toBe("voteQuestion");
    expect(ids.get("POST /api/answers/{answer_ids}/trash")).toBe("trashAnswers");
    expect(ids.get("GET /api/options")).toBe("getOptions");
  });

  it("documents every operation's refusals (4XX) and failures with the error body", async () => {
    const doc = await loadDocument();
    const missing = operations(doc).filter(({ op }) =>
      ["4XX", "default"].some((status) => {
        const schema: Json = op.responses[status]?.content?.["application/json"]?.schema;
        return schema?.$ref !== "#/components/schemas/Error";
      }),
    );
    expect(missing.map((op) => `${op.method} ${op.path}`)).toEqual([]);
    expect(doc.components.schemas.Error.required).toEqual(["code", "message"]);
  });

  it("says at its root that a login is optional, and an operation that needs one says so itself", async () => {
    const doc = await loadDocument();
    expect(doc.security).toEqual([{}, { token: [] }, { bearer: [] }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["bearer", "token"]);
    const logins = operations(doc).filter((op) => op.access !== "public");
    expect(logins.length).toBeGreaterThan(0);
    expect(
      logins.filter((op) => JSON.stringify(op.op.security) !== JSON.stringify([{ token: [] }, { bearer: [] }])),
    ).toEqual([]);
  });

  it("puts a type beside every nullable and no empty required list (OpenAPI 3.0)", async () => {
    const problems: string[] = [];
    const walk = (node: Json, at: string) => {
      if (!node || typeof node !== "object") return;
      if (node.nullable === true && !node.type && !node.$ref) problems.push(`${at}: nullable without type`);
      if (Array.isArray(node.required) && node.required.length === 0) problems.push(`${at}: required []`);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(await loadDocument(), "#");
    expect(problems).toEqual([]);
  });
});
