// `npm run lint`, with Biome: no line of the project's code is over 120 characters. Biome's formatter wraps code
// but leaves comments and string literals as written, so this catches what it cannot. test/ is left out: its
// long lines are test names and SQL literals, which stay as the tests were written.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const MAX = 120;
const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "src", "bench", "scripts", ":(glob)*.ts"], {
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => /\.(ts|mjs|js)$/.test(file) && existsSync(file));
let found = 0;
for (const file of files) {
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (line.length <= MAX) return;
      found += 1;
      console.log(`${file}:${index + 1}: ${line.length} characters`);
    });
}
if (found > 0) {
  console.log(`${found} lines over ${MAX} characters`);
  process.exit(1);
}
