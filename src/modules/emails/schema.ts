/** Zod schemas of POST /emails (docs/stats-captcha-mail.md#mass-mail): the mass mail an administrator sends. */
import { z } from "../../http/openapi";
import { isEmailAddress } from "../../lib/mail";

export const MAX_RECIPIENTS = 100;

/** The original read a comma-separated string (MDClub's Request::getBodyParamToArray); the SDK sends an array. */
const listOf = (value: unknown) =>
  typeof value === "string"
    ? value
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part !== "")
    : value;

/** First spelling wins: addresses are one mailbox whatever their case (docs/decisions.md#accounts-and-access). */
function withoutDuplicates(addresses: string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((address) => {
    const key = address.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const Address = z
  .string()
  .refine(isEmailAddress, { error: (issue) => `not a valid e-mail address: ${String(issue.input)}` });

const notBlank = (text: string) => text.trim() !== "";

export const EmailBody = z
  .object({
    // Counted before duplicates go (docs/stats-captcha-mail.md#mass-mail): 101 entries are refused even if fewer
    // addresses remain.
    email: z
      .preprocess(
        listOf,
        z
          .array(Address)
          .min(1, "must hold at least one address")
          .max(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} addresses`),
      )
      .transform(withoutDuplicates)
      .openapi({
        type: "array",
        items: { type: "string", format: "email" },
        description:
          `1 to ${MAX_RECIPIENTS} addresses (or one comma-separated string); ` +
          "duplicates, in any case, are sent once",
      }),
    subject: z.string().max(200).refine(notBlank, "must not be empty"),
    content: z.string().max(100_000).refine(notBlank, "must not be empty").openapi({ description: "the HTML body" }),
  })
  .openapi("MassEmail");

export const EmailSentSchema = z
  .object({
    email: z.array(z.string()).openapi({ description: "the addresses mailed, duplicates removed" }),
    subject: z.string(),
    content: z.string(),
  })
  .openapi("MassEmailSent");
