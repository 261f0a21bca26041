import { createRouter } from "../../app-router";

const router = createRouter();

export default router;
