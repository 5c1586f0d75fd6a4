import { execFileSync } from "node:child_process";

/*
 * Whether `go` is here: Pulumi's code generators (the SDKs, the reference pages' examples) are Go
 * programs built on first use. Without it their tests are skipped, saying so; in CI
 * (REQUIRE_PULUMI_ENGINE=1) that is a failure.
 */
export const goMissing = (() => {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "skipped: no go on PATH (it runs Pulumi's code generators)";
  }
})();
if (goMissing && process.env.REQUIRE_PULUMI_ENGINE === "1") {
  throw new Error(`go is required (REQUIRE_PULUMI_ENGINE=1): ${goMissing}`);
}
