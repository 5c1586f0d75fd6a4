/** @type {import('jest').Config} */
module.exports = {
  // dist/ rebuilt when src/ changed (tests spawn the bin and Pulumi's provider host, which load
  // it), and temp folders of the run's own, removed after it: see test/helpers/run-folders.js.
  globalSetup: "<rootDir>/test/helpers/global-setup.js",
  globalTeardown: "<rootDir>/test/helpers/global-teardown.js",
  testEnvironment: "<rootDir>/test/helpers/worker-environment.js",
  testSequencer: "<rootDir>/test/helpers/sequencer.js",
  // examples/unit-testing: a user's unit tests under Pulumi's mocks, run as they would be.
  roots: ["<rootDir>/test", "<rootDir>/examples/unit-testing"],
  moduleNameMapper: { "^pulumi-hosting$": "<rootDir>/src/index.ts" },
  testPathIgnorePatterns: ["/node_modules/", "/test/.work/"],
  // Programs copied there carry their own package.json: not modules of this repository.
  modulePathIgnorePatterns: ["<rootDir>/test/.work/"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
  },
  testTimeout: 60000,
};
