/** Request and response shapes of the account routes; the rules here are the ones that need no database. */
import { z } from "../../http/openapi";
import { isEmailAddress } from "../../lib/mail";
import { USERNAME } from "../../lib/username";

const text = () => z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") });

const Email = text()
  .refine(isEmailAddress, "must be a valid e-mail address (at most 320 characters)")
  .openapi({ format: "email", example: "someone@example.com" });

/**
 * docs/auth.md#registration: 2-20 characters of CJK (U+4E00-U+9FA5), A-Z, a-z, 0-9, and not a phone number. The
 * original also refuses names that look like e-mail addresses; this charset cannot form one (no `@`).
 */
const Username = text()
  .regex(USERNAME, "must be 2-20 characters: letters, digits or Chinese characters")
  .refine((name) => !/^1\d{10}$/.test(name), "must not be a phone number")
  .openapi({ example: "alice" });

const NonEmpty = () => text().min(1, "is required");

const Password = NonEmpty().openapi({
  description: "the password, or its SHA-1 hex digest as the official SDK sends it",
});

const EmailCode = NonEmpty().openapi({ description: "the 6-character code from the mail", example: "a1b2c3" });

export const EmailBody = z.object({ email: Email });

export const RegisterBody = z.object({ email: Email, email_code: EmailCode, username: Username, password: Password });

export const ResetPasswordBody = z.object({ email: Email, email_code: EmailCode, password: Password });

export const LoginBody = z.object({
  // 320 is the longest e-mail address; a name is stored as a throttle subject when the login fails.
  name: NonEmpty().max(320, "at most 320 characters").openapi({ description: "username or e-mail address" }),
  password: Password,
  device: text().max(600, "at most 600 characters").optional().openapi({
    description: "defaults to the User-Agent header",
  }),
  captcha_token: text().optional(),
  captcha_code: text().optional(),
});

export const TokenSchema = z
  .object({
    token: z.string().openapi({ description: "send it as the `token` header or as `Authorization: Bearer <token>`" }),
    user_id: z.number().int(),
    device: z.string(),
    create_time: z.number().int(),
    update_time: z.number().int(),
    expire_time: z.number().int(),
  })
  .openapi("Token");

export const CaptchaSchema = z
  .object({
    captcha_token: z.string(),
    captcha_image: z.string().openapi({ description: "an SVG image as a data URI" }),
  })
  .openapi("Captcha");
