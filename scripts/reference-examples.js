/*
 * The reference pages' examples of helpers that only the TypeScript package has (the test
 * compiles every ```ts block of docs/reference). Every other page's example is a YAML program in
 * scripts/reference-examples/<Page>.yaml, which scripts/reference-programs.js carries to
 * TypeScript, Python and Go.
 */
module.exports = {
  pickRuntimeVersion: `const node = hosting
  .getRuntimeVersionsOutput({ language: "node" })
  .apply((versions) => hosting.pickRuntimeVersion(versions, { language: "node" }));
// The version object is a runtime as it is: its other fields are ignored.
new hosting.App("web", { source: "./app", name: "web", runtime: node });`,
};
