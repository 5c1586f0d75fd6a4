import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import type { AppRecord, RunningEmulator } from "../../src/emulator";
import { useEmulators } from "./emulator";
import type { Seen } from "./python-run";

const emulators = useEmulators();

/*
 * What the reference-run-<language> tests share: the pages' examples of one language (as the
 * pages show them), an emulator seeded for them, the config they read, and what a user sees
 * once all of them ran as one stack (up, then destroy).
 */

type Language = "typescript" | "python" | "go" | "yaml";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const reference = require("../../scripts/reference-docs") as {
  examplesOfPages(): Map<string, Partial<Record<Language, string>>>;
};

/** Page name → the example's text in `language`, for every page that has one. */
export function pageExamples(language: Language): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, example] of reference.examplesOfPages()) {
    const text = example[language];
    if (text !== undefined) out.set(name, text);
  }
  if (out.size < 17) throw new Error(`only ${out.size} ${language} examples on the pages`);
  return out;
}

/** The config keys the examples declare (the YAML programs' `config`), sorted. */
export function declaredConfig(): string[] {
  const keys = new Set<string>();
  for (const text of pageExamples("yaml").values()) {
    const program = parse(text) as { config?: Record<string, unknown> };
    for (const k of Object.keys(program.config ?? {})) keys.add(k);
  }
  return [...keys].sort();
}

export interface ExampleWorld {
  emu: RunningEmulator;
  token: string;
  /** Project config: a value for each key the examples declare. */
  config: Record<string, string>;
  /** An app made before the stack (getApps reads the first app of the list). */
  madeBefore: AppRecord;
  /** A folder with the `./app` the examples deploy; programs run from there. */
  work: string;
}

/**
 * Runs the stack of every example with `run` (which returns its outputs once it is destroyed)
 * in a world of its own, then checks what a user sees (`expectExamplesRan`).
 */
export async function runExamples(
  seed: string,
  run: (w: ExampleWorld) => Promise<Outputs>,
): Promise<void> {
  const w = await exampleWorld(seed);
  try {
    expectExamplesRan(w, await run(w));
  } finally {
    await w.emu.stop();
  }
}

/** The outputs of an Automation API run, which also previewed: no change, no token in state. */
export function outputsOfSeen(seen: Seen): Outputs {
  expect(seen.preview).toEqual({ same: expect.any(Number) });
  expect(seen.tokenOutsideSecrets).toEqual([]);
  return seen.outputs;
}

/**
 * An emulator for the examples: `www.example.com` counts as pointed at the edge, an app exists
 * already, and the config names the seeded database, VM and backups.
 */
async function exampleWorld(seed: string): Promise<ExampleWorld> {
  const emu = await emulators.start({
    seed,
    setupDelayMs: 0,
    domainActivationMs: 0,
    pointedDomainSuffix: ".example.com",
  });
  const alice = emu.users[0];
  const now = Date.now();
  const madeBefore: AppRecord = {
    id: "00000000-0000-4000-8000-00000000a990",
    user_id: alice.id,
    name: "made-before",
    ram: 512,
    vcpu: 1,
    subdomain: "made-before",
    entrypoint: "index.js",
    description: "",
    custom_command: "",
    runtime: null,
    env_keys: [],
    created_at: now - 86400_000,
    setup_ready_at: now - 86400_000,
    web_enabled: true,
    analytics_enabled: false,
    domain: null,
    archive_sha256: "0".repeat(64),
    archive_bytes: 0,
  };
  emu.world.apps.push(madeBefore);
  const postgres = emu.world.databases.find(
    (d) => d.user_id === alice.id && d.service_type === "postgres",
  )!;
  const vm = emu.world.vms.find((v) => v.user_id === alice.id)!;
  const backupOf = (projectId: string, oldEnoughToDelete: boolean) =>
    emu.world.backups.find(
      (b) => b.project_id === projectId && now - b.created_at > 86400_000 === oldEnoughToDelete,
    )!;
  const config: Record<string, string> = {
    databaseId: postgres.id,
    databaseName: postgres.name,
    vmId: vm.id,
    oldBackupProjectId: vm.id,
    oldBackupId: backupOf(vm.id, true).id,
    projectId: postgres.id,
    backupId: backupOf(postgres.id, false).id,
  };
  const work = mkdtempSync(join(tmpdir(), "hosting-examples-"));
  mkdirSync(join(work, "app"));
  writeFileSync(join(work, "app", "index.js"), "require('http').createServer().listen(8080);\n");
  return { emu, token: emu.issueToken(), config, madeBefore, work };
}

/** A stack output as a user reads it: its value and whether Pulumi holds it as a secret. */
export type Outputs = Record<string, { value: unknown; secret: boolean }>;

/** The apps the examples make, by their `name`. */
const APPS = ["web", "blog", "internal", "shop", "docs", "store", "api", "worker", "site"];

/**
 * What a user sees once the stack of every example went up and was destroyed: its outputs, and
 * what the service did (the actions' effects, the toggles' requests), with nothing left behind.
 */
function expectExamplesRan(w: ExampleWorld, outputs: Outputs): void {
  const { emu, config } = w;
  const postgres = emu.world.databases.find((d) => d.id === config.databaseId)!;
  const plain = (v: unknown) => ({ value: v, secret: false });
  expect(outputs).toEqual({
    subdomain: plain(expect.stringMatching(/^[a-z0-9-]+$/)),
    dnsRecords: plain(expect.arrayContaining([expect.objectContaining({ type: "CNAME" })])),
    docsCreatedAt: plain(expect.stringMatching(/^\d{4}-\d\d-\d\dT/)),
    totalRequests: plain(expect.any(Number)),
    firstDeployId: plain(expect.stringMatching(/\S/)),
    ramLastHour: plain(expect.any(Array)),
    firstAppId: plain(w.madeBefore.id),
    // Secrets, as their pages say (the URL is signed, the connection URL holds the password).
    downloadUrl: { value: expect.stringContaining(config.backupId), secret: true },
    ordersId: plain(postgres.id),
    ordersEngine: plain("postgres"),
    connectionUrl: { value: expect.stringMatching(/^postgres(ql)?:\/\//), secret: true },
    firstPostgresName: plain(postgres.name),
  });
  const requests = emu.stats().requests;
  expect(requests["POST /apps"]).toBe(APPS.length);
  // AppWebAccess turned web access off; AppAnalytics turned analytics on (blog, store).
  expect(requests["DELETE /apps/{app_id}/web"]).toBeGreaterThanOrEqual(1);
  expect(requests["PATCH /apps/{app_id}/analytics"]).toBeGreaterThanOrEqual(2);
  expect(requests["POST /databases/{database_id}/retry-setup"]).toBe(1);
  // The actions' effects outlive the stack: the VM runs, the old backup is gone.
  expect(emu.world.vms.find((v) => v.id === config.vmId)?.running).toBe(true);
  expect(emu.world.backups.some((b) => b.id === config.oldBackupId)).toBe(false);
  // Destroy removed every app the stack made; the one made before is untouched.
  expect(emu.world.apps.map((a) => a.name)).toEqual([w.madeBefore.name]);
}

/**
 * Outputs as `pulumi stack output --json` gives them with `--show-secrets` (`shown`) and without
 * (`hidden`, where a secret reads "[secret]").
 */
export function cliOutputs(
  shown: Record<string, unknown>,
  hidden: Record<string, unknown>,
): Outputs {
  return Object.fromEntries(
    Object.entries(shown).map(([k, value]) => [k, { value, secret: hidden[k] === "[secret]" }]),
  );
}
