/** Accounts: registration, login and logout, captchas, password reset (docs/auth.md). */
import { createRoute } from "@hono/zod-openapi";
import { ok } from "../../http/envelope";
import { anonymousFlow, loginRequired } from "../../http/middleware/context";
import { unseenWrite } from "../../http/middleware/edge-cache";
import { authSecurity, jsonBody, nullResponse, okResponse } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { viewOf } from "../../http/view";
import { createCaptcha } from "../../lib/captcha";
import { presentUser } from "../users/present";
import { UserSchema } from "../users/schema";
import { login, logout } from "./login";
import { resetPassword, sendPasswordResetCode } from "./password-reset";
import { register, sendRegisterCode } from "./registration";
import { CaptchaSchema, EmailBody, LoginBody, RegisterBody, ResetPasswordBody, TokenSchema } from "./schema";

const router = createRouter();

router.openapi(
  createRoute({
    method: "post",
    path: "/user/register/email",
    operationId: "sendRegisterEmail",
    middleware: [anonymousFlow],
    tags: ["auth"],
    summary: "Mail a registration code",
    description:
      "Mails a 6-character code, valid for one hour, to an address not yet registered (taken: 409 with 200001). " +
      "At most one code request per address per minute and ten per IP (IPv6: per /64) per hour, counted " +
      "whether or not a mail goes out (429, 100002).",
    request: { body: jsonBody(EmailBody) },
    responses: nullResponse,
  }),
  async (c) => {
    await sendRegisterCode(c, c.req.valid("json").email);
    return ok(c, null);
  },
);

router.openapi(
  createRoute({
    method: "post",
    path: "/users",
    operationId: "register",
    middleware: [anonymousFlow],
    tags: ["auth"],
    summary: "Register",
    description:
      "Creates an account with the code mailed by POST /user/register/email. A taken username or address is " +
      "409 with 200001; a wrong code 200001 `errors.email_code`; an expired one 200003; a password shorter than 8 " +
      "characters or a common one 200001 `errors.password`. No token is issued: log in next.",
    request: { body: jsonBody(RegisterBody) },
    responses: okResponse(UserSchema, "the new User (as an anonymous caller sees it)"),
  }),
  async (c) => {
    const user = await register(c, c.req.valid("json"));
    return ok(c, presentUser(user, viewOf(c)));
  },
);

router.openapi(
  createRoute({
    method: "post",
    path: "/tokens",
    operationId: "login",
    middleware: [anonymousFlow, unseenWrite],
    tags: ["auth"],
    summary: "Log in",
    description:
      "`name` is the username or the e-mail address. After 5 failed attempts from one IP (IPv6: one /64) or for " +
      "one account within 15 minutes, an attempt must carry `captcha_token` and `captcha_code` (else 429 with " +
      "200001 `errors.captcha_code`); such errors carry a fresh `captcha_token` and `captcha_image`. Past 5 " +
      "failures of an account, an attempt must also wait 2^(failures - 5) seconds (at most 15 minutes) after the " +
      "latest: 429 with 100002 and `Retry-After`.",
    request: { body: jsonBody(LoginBody) },
    responses: okResponse(TokenSchema, "the Token record; `token` is shown only here"),
  }),
  async (c) => ok(c, await login(c, c.req.valid("json"))),
);

router.openapi(
  createRoute({
    method: "delete",
    path: "/tokens/current",
    operationId: "logout",
    tags: ["auth"],
    summary: "Log out",
    description: "Deletes the token the request carries; later requests with it are anonymous.",
    security: authSecurity,
    middleware: [loginRequired, unseenWrite],
    responses: nullResponse,
  }),
  async (c) => {
    await logout(c);
    return ok(c, null);
  },
);

router.openapi(
  createRoute({
    method: "post",
    path: "/captchas",
    operationId: "createCaptcha",
    middleware: [anonymousFlow],
    tags: ["auth"],
    summary: "Get a captcha",
    description: "Valid for 10 minutes and for one check, right or wrong; the answer is case-insensitive.",
    responses: okResponse(CaptchaSchema),
  }),
  async (c) => ok(c, await createCaptcha(c.get("db"))),
);

router.openapi(
  createRoute({
    method: "post",
    path: "/user/password/email",
    operationId: "sendPasswordResetEmail",
    middleware: [anonymousFlow],
    tags: ["auth"],
    summary: "Mail a password reset code",
    description:
      "Answers the same whether or not the address has an account; the mail goes only to an enabled account. " +
      "Same limits as registration codes.",
    request: { body: jsonBody(EmailBody) },
    responses: nullResponse,
  }),
  async (c) => {
    await sendPasswordResetCode(c, c.req.valid("json").email);
    return ok(c, null);
  },
);

router.openapi(
  createRoute({
    method: "put",
    path: "/user/password",
    operationId: "resetPassword",
    middleware: [anonymousFlow],
    tags: ["auth"],
    summary: "Reset the password",
    description:
      "With the code from POST /user/password/email. The password needs at least 8 characters and must not be " +
      "a common one (200001 `errors.password`). Ends every session of the account.",
    request: { body: jsonBody(ResetPasswordBody) },
    responses: nullResponse,
  }),
  async (c) => {
    await resetPassword(c, c.req.valid("json"));
    return ok(c, null);
  },
);

export default router;
