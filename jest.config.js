/** @type {import('jest').Config} */
module.exports = {
  // Tests that spawn the bin or Pulumi's provider host load dist/: built here if there is none.
  globalSetup: "<rootDir>/scripts/build.js",
  testEnvironment: "<rootDir>/test/harness/worker-environment.js",
  roots: ["<rootDir>/test"],
  testPathIgnorePatterns: ["/node_modules/", "/test/.work/"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
  },
  testTimeout: 60000,
};
