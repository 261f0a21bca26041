/**
 * The release this Worker is: package.json's `version`, the one place it is written (CHANGELOG.md says what each
 * release added). The OpenAPI document's `info.version`, the reference page's title and `system_info` read it
 * here, and the typed client's header reads it from the document. esbuild bundles only the keys imported from a
 * JSON file (here `version` and `dependencies`), never package.json's scripts or devDependencies.
 */
import { dependencies, version } from "../../package.json";

export { version };

/** The Hono release the Worker is built with: package.json pins it exactly. */
export const honoVersion = dependencies.hono;
