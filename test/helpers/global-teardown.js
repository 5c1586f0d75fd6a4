// Jest's globalTeardown: the run's temp folder goes (run-folders.js).
const { endRun } = require("./run-folders");

module.exports = async () => endRun();
