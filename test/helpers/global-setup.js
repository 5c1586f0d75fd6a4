// Jest's globalSetup: tests that load dist/ (the provider host, the bin) run what src/ says,
// whether jest was started by `npm test`, `npx jest <file>` or Stryker; and the run gets temp
// folders of its own (run-folders.js).
const build = require("../../scripts/build");
const { startRun } = require("./run-folders");

module.exports = async () => {
  await build();
  startRun();
};
