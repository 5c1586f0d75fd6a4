#!/usr/bin/env node
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import type { FaultConfig } from "./faults";

const help = `hosting-emulator: a local stand-in for the Hosting Management API

Options:
  --port N                    port to listen on (default 0: a free one)
  --host H                    interface to bind (default 127.0.0.1)
  --seed S                    make the seeded world and fault dice repeatable
  --state-file F              keep state in F; every acknowledged change is written first
  --faults JSON|@file         fault configuration, e.g. '{"rules":[{"route":"POST /apps","status":503}]}'
  --rate-limit N              at most N requests per second per token (429 with Retry-After)
  --setup-delay-ms N          time until a new app's setup is true (default 200)
  --domain-activation-ms N    time until a custom hostname is active (default 500)
  --min-backup-retention-ms N youngest deletable backup age (default 86400000)
  --max-upload-bytes N        upload size cap (default 268435456)
  --control-token T           require "Authorization: Bearer T" on the control API (/__emulator/*);
                              without it, the control API answers loopback peers only
  --log                       log every request
  --help`;

function num(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${flag} must be a number ≥ 0`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      seed: { type: "string" },
      "state-file": { type: "string" },
      faults: { type: "string" },
      "rate-limit": { type: "string" },
      "setup-delay-ms": { type: "string" },
      "domain-activation-ms": { type: "string" },
      "min-backup-retention-ms": { type: "string" },
      "max-upload-bytes": { type: "string" },
      "control-token": { type: "string" },
      log: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(help);
    return;
  }
  if (values["control-token"] === "") {
    console.error("--control-token must not be empty");
    process.exit(2);
  }
  let faults: FaultConfig = {};
  if (values.faults) {
    const text = values.faults.startsWith("@")
      ? readFileSync(values.faults.slice(1), "utf8")
      : values.faults;
    faults = JSON.parse(text) as FaultConfig;
  }
  const rate = num(values["rate-limit"], "rate-limit");
  // Loaded here, so a missing optional server package is reported below as one clear line.
  const { startEmulator } = await import("./index");
  if (rate) faults = { ...faults, rateLimit: { requests: rate, windowMs: 1000 } };
  const emu = await startEmulator({
    port: num(values.port, "port"),
    host: values.host,
    seed: values.seed,
    stateFile: values["state-file"],
    faults,
    setupDelayMs: num(values["setup-delay-ms"], "setup-delay-ms"),
    domainActivationMs: num(values["domain-activation-ms"], "domain-activation-ms"),
    minBackupRetentionMs: num(values["min-backup-retention-ms"], "min-backup-retention-ms"),
    maxUploadBytes: num(values["max-upload-bytes"], "max-upload-bytes"),
    logger: values.log ?? false,
    controlToken: values["control-token"],
  });
  // Machine-readable first lines: tests and scripts read them.
  console.log(`HOSTING_API_URL=${emu.url}`);
  console.log(`HOSTING_TOKEN=${emu.issueToken()}`);
  console.log(
    `hosting-emulator listening on ${emu.url} (users: ${emu.users.map((u) => u.name).join(", ")})`,
  );
  const stop = () => {
    void emu.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(`hosting-emulator: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
