import * as path from "node:path";
import * as ts from "typescript";

/*
 * examples/cloudflare-dns type-checks under its own tsconfig, against the built pulumi-hosting
 * (pretest builds dist/) and a declaration stub of the part of @pulumi/cloudflare it uses
 * (test/types/cloudflare-stub: the real package is not installed here). A renamed output, a
 * changed DnsRecord shape or an Output used as a plain value in the example fails this test.
 */

const ROOT = path.resolve(__dirname, "..", "..");
const EXAMPLE = path.join(ROOT, "examples", "cloudflare-dns");

function exampleDiagnostics(): string[] {
  const file = path.join(EXAMPLE, "tsconfig.json");
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, "\n"));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, EXAMPLE);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    baseUrl: ROOT,
    paths: {
      "@pulumi/cloudflare": ["test/types/cloudflare-stub/index.d.ts"],
      "pulumi-hosting": ["dist/index.d.ts"],
    },
  };
  const program = ts.createProgram(parsed.fileNames, options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file) return text;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${path.relative(ROOT, d.file.fileName)}:${line + 1}: ${text}`;
  });
}

test("examples/cloudflare-dns type-checks against pulumi-hosting and @pulumi/cloudflare's DnsRecord", () => {
  expect(exampleDiagnostics()).toEqual([]);
}, 60_000);
