/**
 * What a username is made of (docs/auth.md#registration): 2 to 20 CJK ideographs (U+4E00-U+9FA5), ASCII letters and
 * digits. Registration checks names against it, mentions find names in text by it (lib/mentions.ts), and the
 * user search bounds its prefix by the longest name.
 */
export const USERNAME_CHARACTER = "\\u4E00-\\u9FA5A-Za-z0-9";
export const MIN_USERNAME_LENGTH = 2;
export const MAX_USERNAME_LENGTH = 20;

/** A whole username. */
export const USERNAME = new RegExp(`^[${USERNAME_CHARACTER}]{${MIN_USERNAME_LENGTH},${MAX_USERNAME_LENGTH}}$`);
