/** Vite's `?raw` imports, which the test runner bundles as the file's text (test/release.test.ts reads files so). */
declare module "*?raw" {
  const text: string;
  export default text;
}
