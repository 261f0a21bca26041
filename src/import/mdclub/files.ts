/**
 * The image files that imported rows name, for the CLI to copy from MDClub's upload folder into R2
 * (docs/migrating-from-mdclub.md), and what becomes of the rows whose files did not come across.
 */
import type { ImportTarget } from "./import-target";
import type { Row } from "./tables";

/** An image file the imported rows name: its R2 key, and where MDClub's upload folder may hold it. */
export interface FileReference {
  key: string;
  /** The row column naming it (avatars and covers); content images are named by their own row. */
  column?: { table: string; column: string };
  sizes: readonly string[];
  /** Paths relative to MDClub's upload folder, the likeliest first. */
  candidates: string[];
}

const IMAGE_SIZES: Record<string, readonly string[]> = {
  avatar: ["small", "middle", "large"],
  cover: ["small", "middle", "large"],
  image: ["thumb", "release"],
};

/**
 * The files a row names. A content image's folder is dated by its upload day: this API dates it in UTC, MDClub in
 * its server's time zone, so the neighbouring days are candidates too.
 */
export function collectFiles(files: FileReference[], table: string, row: Row) {
  for (const column of ["avatar", "cover"] as const) {
    const key = row[column];
    if ((table === "users" || table === "topics") && typeof key === "string" && key) {
      files.push({ key, column: { table, column }, sizes: IMAGE_SIZES[column] ?? [], candidates: [key] });
    }
  }
  if (table === "images" && typeof row.key === "string") {
    const name = row.key;
    const day = 86_400;
    const time = Number(row.create_time);
    const [key, ...others] = [time, time - day, time + day].map((t) => imagePath(name, t));
    files.push({ key: key as string, sizes: IMAGE_SIZES.image ?? [], candidates: [key as string, ...others] });
  }
}

/**
 * Avatars and covers whose files did not come across show the default images: a row never names a missing file
 * (docs/images.md#where-files-are-stored). Content images keep their rows, keys and links either way.
 */
export async function forgetMissingFiles(target: ImportTarget, missing: readonly FileReference[]): Promise<void> {
  const statements = missing.flatMap(({ key, column }) =>
    column
      ? [{ sql: `UPDATE "${column.table}" SET "${column.column}" = '' WHERE "${column.column}" = ?`, params: [key] }]
      : [],
  );
  await target.execute(statements);
}

function imagePath(name: string, time: number): string {
  const day = new Date(time * 1000).toISOString();
  return `image/${day.slice(0, 7)}/${day.slice(8, 10)}/${name.slice(0, 2)}/${name}`;
}
