/** @type {import('jest').Config} */
module.exports = {
  // Tests that spawn the bin or Pulumi's provider host load dist/: built here if there is none.
  globalSetup: "<rootDir>/scripts/build.js",
  testEnvironment: "<rootDir>/test/harness/worker-environment.js",
  testSequencer: "<rootDir>/test/harness/sequencer.js",
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
