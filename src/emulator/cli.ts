#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { parseCliArgs } from "./cli-args";
import { EmulatorUsageError, EmulatorControlTokenError } from "./errors";
import { CONTROL_TOKEN_ENV, resolveControlToken } from "./control-token";
import { once } from "../base";
import type { FaultConfig } from "./faults";

/* eslint-disable @typescript-eslint/no-require-imports */
// Loaded when used: `--help` and a usage error need neither the server nor the fault schema.
const faultsModule = once(() => require("./faults") as typeof import("./faults"));
const emulatorModule = once(() => require("./index") as typeof import("./index"));
/* eslint-enable @typescript-eslint/no-require-imports */

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
  --control-token-file F      require "Authorization: Bearer <token>" on the control API
                              (/__emulator/*), the token read from F (one line; chmod 600 F)
  --control-token T           the same with T itself (visible to every local user: prefer the
                              file or the environment)
  --ignore-idempotency-keys   serve every POST anew, as a service that ignores the
                              Idempotency-Key header (default: a repeated key gets the first reply)
  --log                       log every request
  --help

Environment:
  ${CONTROL_TOKEN_ENV}  the control token when neither option gives one

Without a control token, the control API answers loopback peers that address it as localhost,
127.0.0.1 or [::1] only.`;

function num(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${flag} must be a number ≥ 0`);
    process.exit(2);
  }
  return n;
}

const FAULTS_EXAMPLE = `--faults '{"rules":[{"route":"POST /apps","status":503,"times":1}]}'`;

/** The --faults value (JSON, or @file holding JSON), checked before the emulator starts. */
async function readFaults(value: string): Promise<FaultConfig> {
  const fail = (why: string): never => {
    console.error(`--faults: ${why}\n  e.g. ${FAULTS_EXAMPLE}`);
    process.exit(2);
  };
  const file = value.startsWith("@") ? value.slice(1) : undefined;
  let text = value;
  if (file !== undefined) {
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      return fail(`cannot read ${file}: ${(err as Error).message}`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail(`${file ?? "the value"} is not valid JSON (${(err as Error).message})`);
  }
  const { parseFaultConfig } = faultsModule();
  const parsed = parseFaultConfig(json);
  return parsed.ok ? (json as FaultConfig) : fail(parsed.error);
}

async function main(): Promise<void> {
  const values = parseCliArgs("hosting-emulator", process.argv.slice(2), {
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
    "control-token-file": { type: "string" },
    "ignore-idempotency-keys": { type: "boolean" },
    log: { type: "boolean" },
    help: { type: "boolean" },
  });
  if (values.help) {
    console.log(help);
    return;
  }
  const controlToken = resolveControlToken(
    values["control-token"],
    values["control-token-file"],
    process.env,
  );
  if (values["control-token"] !== undefined) {
    console.error(
      `hosting-emulator: --control-token is visible to every local user (ps); prefer ` +
        `--control-token-file or ${CONTROL_TOKEN_ENV}`,
    );
  }
  const rate = num(values["rate-limit"], "rate-limit");
  // Loaded here, so a missing optional server package is reported below as one clear line.
  const { startEmulator } = emulatorModule();
  let faults = values.faults ? await readFaults(values.faults) : {};
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
    honourIdempotencyKeys: !values["ignore-idempotency-keys"],
    logger: values.log ?? false,
    controlToken,
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
  if (err instanceof EmulatorUsageError || err instanceof EmulatorControlTokenError) {
    console.error(`hosting-emulator: ${err.message}`);
    process.exit(2);
  }
  console.error(`hosting-emulator: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
