// The headless Chromium the browser tests drive: Debian's, or CHROMIUM; with the flags a closed network needs
// (without the background-networking ones Chromium keeps calling Google's hosts).
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
