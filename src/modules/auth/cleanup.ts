/** Hourly purge (Cron Trigger): expired tokens, e-mail codes and captchas, throttle events older than any window. */
import { lt } from "drizzle-orm";
import { commit, type Db } from "../../db/client";
import { captchas, email_codes, throttles, tokens } from "../../db/schema";
import { now } from "../../lib/time";

/** The longest throttle window (code mails per IP per hour). */
const LONGEST_WINDOW = 3600;

export async function purgeExpired(db: Db): Promise<void> {
  const time = now();
  await commit(db, [
    db.delete(tokens).where(lt(tokens.expire_time, time)),
    db.delete(email_codes).where(lt(email_codes.expire_time, time)),
    db.delete(throttles).where(lt(throttles.create_time, time - LONGEST_WINDOW)),
    db.delete(captchas).where(lt(captchas.expire_time, time)),
  ]);
}
