/**
 * Mass mail (docs/stats-captcha-mail.md#mass-mail): one message per recipient, so no address sees another
 * (docs/decisions.md#mass-mail-goes-to-each-recipient-alone; the original put every address in one To: list).
 */
import { ApiError } from "../../core/errors";

export type SendTo = (address: string) => Promise<void>;

const reasonOf = (error: unknown): string => {
  if (error instanceof ApiError) return String(error.extra?.extra_message ?? error.message);
  return error instanceof Error ? error.message : String(error);
};

/**
 * Sends in order and stops at the first failure: a 200002 whose extra_message says how many went out, so the
 * administrator knows which recipients still need the mail.
 */
export async function sendToEach(addresses: readonly string[], send: SendTo): Promise<void> {
  // The index of an address is how many went out before it.
  for (const [sent, address] of addresses.entries()) {
    try {
      await send(address);
    } catch (error) {
      throw new ApiError("EMAIL_SEND_FAILED", {
        extra: {
          extra_message: `${sent} of ${addresses.length} mails sent; sending to ${address} failed: ${reasonOf(error)}`,
        },
      });
    }
  }
}
