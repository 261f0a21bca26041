/** Every resource router, mounted under /api by app.ts. */
import auth from "./auth/routes";
import options from "./options/routes";
import users from "./users/routes";

export const routers = [options, auth, users];
