/** The hourly clean-up's part for webhooks: attempts and event bodies go after 30 days (docs/events.md#limits). */
import { commit, type Db } from "../../db/client";
import { now } from "../../lib/time";
import { purgeDeliveries } from "./repo";

const DELIVERY_LOG_DAYS = 30;

export async function purgeDeliveryLog(db: Db): Promise<void> {
  await commit(db, purgeDeliveries(db, now() - DELIVERY_LOG_DAYS * 86_400));
}
