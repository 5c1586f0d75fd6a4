// Read once at load; the package.json sits two levels above dist/api and src/api alike.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const version: string = (require("../../package.json") as { version: string }).version;
