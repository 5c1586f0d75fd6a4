/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "<rootDir>/test/harness/worker-environment.js",
  roots: ["<rootDir>/test"],
  testPathIgnorePatterns: ["/node_modules/", "/test/.work/"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
  },
  testTimeout: 60000,
};
