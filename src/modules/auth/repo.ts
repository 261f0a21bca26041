/**
 * Queries of the account routes. Each returns an unexecuted statement so services can put reads and writes
 * into one `db.batch()`. Names and addresses are compared as `lower(column) = lower(?)`, the expression the
 * unique indexes are built on, so lookups hit them and match the way uniqueness is enforced.
 */
import { and, count, eq, exists, gt, inArray, max, type SQL, sql } from "drizzle-orm";
import { userColumns } from "../../core/caller";
import type { Db } from "../../db/client";
import { email_codes, throttles, tokens, users } from "../../db/schema";

export type CodePurpose = (typeof email_codes.$inferInsert)["purpose"];

const sameText = (column: typeof users.username | typeof users.email, value: string): SQL =>
  sql`lower(${column}) = lower(${value})`;

export const byUsername = (name: string) => sameText(users.username, name);
export const byEmail = (email: string) => sameText(users.email, email);

/** The user a login names, with what the login checks. */
export const selectLoginUser = (db: Db, match: SQL) =>
  db
    .select({ user_id: users.user_id, role: users.role, password: users.password, disable_time: users.disable_time })
    .from(users)
    .where(match)
    .limit(1);

export const selectUserId = (db: Db, match: SQL) =>
  db.select({ user_id: users.user_id, disable_time: users.disable_time }).from(users).where(match).limit(1);

export const insertUser = (db: Db, values: typeof users.$inferInsert) =>
  db.insert(users).values(values).returning(userColumns);

export const recordLogin = (
  db: Db,
  userId: number,
  values: Pick<typeof users.$inferInsert, "last_login_time" | "last_login_ip" | "last_login_location"> & {
    password?: string;
  },
) => db.update(users).set(values).where(eq(users.user_id, userId));

/** Sets the password only while the reset code is still there: a code used concurrently changes nothing. */
export const updatePasswordWithCode = (db: Db, userId: number, hash: string, code: SQL) =>
  db
    .update(users)
    .set({ password: hash })
    .where(and(eq(users.user_id, userId), code))
    .returning({ user_id: users.user_id });

export const insertToken = (db: Db, values: typeof tokens.$inferInsert) => db.insert(tokens).values(values);

export const deleteToken = (db: Db, tokenHash: string) => db.delete(tokens).where(eq(tokens.token, tokenHash));

export const deleteUserTokensWithCode = (db: Db, userId: number, code: SQL) =>
  db.delete(tokens).where(and(eq(tokens.user_id, userId), code));

// E-mail codes: `email` is the lower-cased address, `code` the SHA-256 hex of the code.

const codeKey = (purpose: CodePurpose, email: string) =>
  and(eq(email_codes.purpose, purpose), eq(email_codes.email, email));

/** A new code replaces the address's previous one for that purpose, with a fresh count of checks. */
export const upsertCode = (db: Db, values: Required<Omit<typeof email_codes.$inferInsert, "attempts">>) =>
  db
    .insert(email_codes)
    .values({ ...values, attempts: 0 })
    .onConflictDoUpdate({
      target: [email_codes.purpose, email_codes.email],
      set: { code: values.code, attempts: 0, create_time: values.create_time, expire_time: values.expire_time },
    });

/** Counts a try of the address's code BEFORE it is compared, and returns the row as it is after the count. */
export const countCodeTry = (db: Db, purpose: CodePurpose, email: string) =>
  db
    .update(email_codes)
    .set({ attempts: sql`${email_codes.attempts} + 1` })
    .where(codeKey(purpose, email))
    .returning({ code: email_codes.code, attempts: email_codes.attempts, expire_time: email_codes.expire_time });

export const deleteCode = (db: Db, purpose: CodePurpose, email: string) =>
  db.delete(email_codes).where(codeKey(purpose, email));

/** A condition true while this exact code row exists (it is deleted when used). */
export const codeStillValid = (db: Db, purpose: CodePurpose, email: string, codeHash: string) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(email_codes)
      .where(and(codeKey(purpose, email), eq(email_codes.code, codeHash))),
  );

// Throttles: one row per counted event.

/** How many events of `action` for `subject` since `since`, and when the latest happened (0 if none). */
export const countEvents = (db: Db, action: string, subject: string | SQL, since: number) =>
  db
    .select({ n: count(), last: sql<number>`coalesce(${max(throttles.create_time)}, 0)` })
    .from(throttles)
    .where(and(eq(throttles.action, action), eq(throttles.subject, subject), gt(throttles.create_time, since)));

/** An event to record; its subject may be computed in SQL by the same statement. */
type Event = { action: string; subject: string | SQL; create_time: number };

/** Inserts one row per event, only where `condition` holds (all or none), returning the ids written. */
const insertEventRows = (db: Db, events: Event[], condition: SQL = sql`1`) => {
  const rows = events.map((e) => sql`SELECT NULL, ${e.action}, ${e.subject}, ${e.create_time} WHERE ${condition}`);
  return db.insert(throttles).select(sql.join(rows, sql` UNION ALL `)).returning({ id: throttles.id });
};

export const insertEvents = (db: Db, events: Event[]) => insertEventRows(db, events);

export interface Limit {
  action: string;
  subject: string;
  window: number;
  max: number;
}

const countIn = (limit: Limit, time: number) =>
  sql`(SELECT count(*) FROM ${throttles} WHERE ${throttles.action} = ${limit.action}
    AND ${throttles.subject} = ${limit.subject} AND ${throttles.create_time} > ${time - limit.window})`;

/**
 * Records one event per limit, all or none: only while every limit is below its `max` (one statement, so two
 * concurrent claims cannot both see the last free place). Returns the ids of the rows written.
 */
export const claimEvents = (db: Db, limits: Limit[], time: number) => {
  const free = sql.join(
    limits.map((limit) => sql`${countIn(limit, time)} < ${limit.max}`),
    sql` AND `,
  );
  const events = limits.map((limit) => ({ action: limit.action, subject: limit.subject, create_time: time }));
  return insertEventRows(db, events, free);
};

export const deleteEventsById = (db: Db, ids: number[]) => db.delete(throttles).where(inArray(throttles.id, ids));

export const deleteEvents = (db: Db, action: string, subject: string) =>
  db.delete(throttles).where(and(eq(throttles.action, action), eq(throttles.subject, subject)));

/** The account key of a login name, computed in SQL from the same lookup the login makes. */
export const accountKeySql = (match: SQL, fallback: string): SQL =>
  sql`coalesce((select 'user:' || ${users.user_id} from ${users} where ${match} limit 1), ${fallback})`;
