/** Every resource router, mounted under /api by app.ts. */
import options from "./options/routes";

export const routers = [options];
