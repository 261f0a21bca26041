/**
 * MDClub's `mc_option` rows as this API's settings (docs/migrating-from-mdclub.md#settings): the names and values
 * renamed by the one table of renames (domain/mdclub-option-names.ts), MDClub's stored strings read as the type of
 * the field ('true'/'false' and its install's '1'/'0' for switches, digits for numbers), and each value checked by
 * the rule `PATCH /api/options` applies (domain/site-options.ts). A value that fails is reported and not written:
 * the field keeps the value it has, the default on a new database.
 */
import { neutralName, neutralValue } from "../../domain/mdclub-option-names";
import { optionFields } from "../../domain/site-options";

export interface OptionsOutcome {
  /** Neutral name -> value, ready to store. */
  values: Record<string, unknown>;
  /** MDClub's name -> why its value was not taken. */
  refused: Record<string, string>;
  /** MDClub's names this API has no field for. */
  unknown: string[];
}

function typed(sample: unknown, raw: string): unknown {
  if (typeof sample === "boolean") {
    if (raw === "true" || raw === "1") return true;
    if (raw === "false" || raw === "0") return false;
    return raw;
  }
  if (typeof sample === "number") return /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  return raw;
}

export function mapOptions(rows: readonly { name: string; value: string }[]): OptionsOutcome {
  const outcome: OptionsOutcome = { values: {}, refused: {}, unknown: [] };
  for (const { name, value } of rows) {
    const neutral = neutralName(name);
    const field = optionFields[neutral];
    if (!field) {
      outcome.unknown.push(name);
      continue;
    }
    // MDClub's install leaves numbers empty ('' reads as 0 there): the field keeps this API's value.
    if (typeof field.default === "number" && value.trim() === "") {
      outcome.refused[name] = "empty: the field keeps its value (the default on a new database)";
      continue;
    }
    const parsed = field.schema.safeParse(typed(field.default, String(neutralValue(name, value))));
    if (parsed.success) outcome.values[neutral] = parsed.data;
    else outcome.refused[name] = `${JSON.stringify(value)}: ${parsed.error.issues[0]?.message ?? "invalid"}`;
  }
  return outcome;
}
