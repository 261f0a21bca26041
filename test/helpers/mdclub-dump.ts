/**
 * Writes MySQL dumps of an MDClub database the way the two usual tools do, for the importer's tests and benchmark:
 * `mysqldump` (conditional comments, LOCK TABLES, extended INSERTs without column lists, backslash escapes) and
 * phpMyAdmin (`--` comments, SET and transaction lines, INSERTs with column lists and one tuple per line, quotes
 * doubled). The columns are MDClub 1.0's (its mdclub.sql), in its order.
 */
import { TABLES } from "../../src/import/mdclub/tables";

export type DumpValue = string | number | null;
export type DumpTable = { columns?: string[]; rows: DumpValue[][] };
export type DumpFormat = "mysqldump" | "phpmyadmin";

/** MDClub's columns per table (without the prefix); option is not in the importer's map. */
export const MDCLUB_COLUMNS: Record<string, string[]> = {
  ...Object.fromEntries(Object.entries(TABLES).map(([name, map]) => [name, [...map.source]])),
  option: ["name", "value"],
};

const TEXT_COLUMNS =
  /^(username|email|avatar|cover|password|create_ip|create_location|last_login_ip|last_login_location|headline|bio|blog|company|location|name|description|title|content.*|commentable_type|topicable_type|followable_type|votable_type|reportable_type|type|reason|key|filename|item_type|token|device|value)$/;

function mysqlString(value: string, format: DumpFormat): string {
  let out = value
    .replaceAll("\\", "\\\\")
    .replaceAll("\0", "\\0")
    .replaceAll("\n", "\\n")
    .replaceAll("\r", "\\r")
    .replaceAll("\x1a", "\\Z")
    .replaceAll('"', '\\"');
  // Both ways MySQL reads a quote: a backslash (mysqldump) and doubling (used here for the phpMyAdmin form, with \t).
  out = format === "mysqldump" ? out.replaceAll("'", "\\'") : out.replaceAll("'", "''").replaceAll("\t", "\\t");
  return `'${out}'`;
}

const sqlValue = (value: DumpValue, format: DumpFormat) =>
  value === null ? "NULL" : typeof value === "number" ? String(value) : mysqlString(value, format);

function createTable(table: string, columns: string[]): string {
  const lines = columns.map(
    (column) => `  \`${column}\` ${TEXT_COLUMNS.test(column) ? "text" : "int(11)"} DEFAULT NULL COMMENT '列; 说明'`,
  );
  return `CREATE TABLE \`${table}\` (\n${lines.join(",\n")},\n  KEY \`${columns[0]}\` (\`${columns[0]}\`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='表';\n`;
}

/** The dump's text, in pieces (a generator, so a large dump is never one string). */
export function* writeDump(
  tables: Record<string, DumpTable>,
  format: DumpFormat,
  options: { prefix?: string; rowsPerInsert?: number } = {},
): Generator<string> {
  const prefix = options.prefix ?? "mc_";
  const perInsert = options.rowsPerInsert ?? 100;
  if (format === "mysqldump") {
    yield "-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)\n--\n-- Host: localhost    Database: mdclub\n";
    yield "/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n/*!50503 SET NAMES utf8mb4 */;\n";
    yield "/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;\n";
  } else {
    yield "-- phpMyAdmin SQL Dump\n-- version 5.2.1\n-- https://www.phpmyadmin.net/\n--\n";
    yield 'SET SQL_MODE = "NO_AUTO_VALUE_ON_ZERO";\nSTART TRANSACTION;\nSET time_zone = "+00:00";\n\n';
    yield "/*!40101 SET NAMES utf8mb4 */;\n\n# a hash comment\n";
  }
  for (const [name, table] of Object.entries(tables)) {
    const full = `${prefix}${name}`;
    const columns = table.columns ?? MDCLUB_COLUMNS[name] ?? [];
    yield `\n--\n-- Table structure for table \`${full}\`\n--\n\nDROP TABLE IF EXISTS \`${full}\`;\n`;
    yield "/*!40101 SET @saved_cs_client     = @@character_set_client */;\n";
    yield createTable(full, columns);
    if (format === "mysqldump")
      yield `LOCK TABLES \`${full}\` WRITE;\n/*!40000 ALTER TABLE \`${full}\` DISABLE KEYS */;\n`;
    for (let at = 0; at < table.rows.length; at += perInsert) {
      const tuples = table.rows
        .slice(at, at + perInsert)
        .map((row) => `(${row.map((v) => sqlValue(v, format)).join(",")})`);
      if (format === "mysqldump") yield `INSERT INTO \`${full}\` VALUES ${tuples.join(",")};\n`;
      else {
        const list = columns.map((column) => `\`${column}\``).join(", ");
        yield `INSERT INTO \`${full}\` (${list}) VALUES\n${tuples.join(",\n")};\n`;
      }
    }
    if (format === "mysqldump") yield `/*!40000 ALTER TABLE \`${full}\` ENABLE KEYS */;\nUNLOCK TABLES;\n`;
  }
  yield format === "mysqldump"
    ? "/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;\n-- Dump completed\n"
    : "COMMIT;\n";
}

/** Pieces re-cut into chunks of `size` characters, as a stream would cut them (inside escapes and pairs). */
export function* rechunk(pieces: Iterable<string>, size: number): Generator<string> {
  let carry = "";
  for (const piece of pieces) {
    carry += piece;
    while (carry.length >= size) {
      yield carry.slice(0, size);
      carry = carry.slice(size);
    }
  }
  if (carry) yield carry;
}
