import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { formatPath } from "../api/wire";
import { EmulatorStateFileError } from "./errors";
import { worldSchema } from "./state-schema";
import { seedWorld, type World } from "./world";

/**
 * Holds the world in memory and, with a state file, writes every acknowledged change before the
 * reply: temp file, fsync, rename, fsync of the folder. A kill -9 at any moment leaves either the
 * old file or the new one, both whole; temp files a crash left behind are removed at start.
 */
export class Store {
  #world: World;
  readonly #file: string | undefined;
  /** The text last written (or loaded): what a restart would serve, and what a rollback restores. */
  #saved: string | undefined;

  constructor(seed: string, file: string | undefined, now = Date.now()) {
    this.#file = file;
    if (file) removeLeftoverTemps(file);
    const loaded = file ? readState(file) : undefined;
    this.#world = loaded?.world ?? seedWorld(seed, now);
    this.#saved = loaded?.text;
    if (file && !loaded) this.save();
  }

  get world(): World {
    return this.#world;
  }

  save(): void {
    const file = this.#file;
    if (!file) return;
    const text = JSON.stringify(this.#world);
    const tmp = tempName(file, process.pid);
    try {
      const fd = openSync(tmp, "w");
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    this.#saved = text;
    try {
      const dir = openSync(dirname(file), "r");
      fsyncSync(dir);
      closeSync(dir);
    } catch {
      // Some file systems refuse fsync on a folder; the rename is still atomic.
    }
  }

  /** Puts the world back to what was last saved (after a save failed). */
  rollback(): void {
    if (this.#saved !== undefined) this.#world = JSON.parse(this.#saved) as World;
  }
}

const tempName = (file: string, pid: number | string) => `${file}.${pid}.tmp`;

function removeLeftoverTemps(file: string): void {
  const dir = dirname(file);
  const pattern = new RegExp(`^${escapeRegExp(basename(file))}\\.\\d+\\.tmp$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no folder yet: nothing left over
  }
  for (const name of names) if (pattern.test(name)) rmSync(join(dir, name), { force: true });
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function readState(file: string): { world: World; text: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new EmulatorStateFileError(file, (err as Error).message, { cause: err });
  }
  if (text.trim().length === 0) throw new EmulatorStateFileError(file, "it is empty");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new EmulatorStateFileError(file, `it is not valid JSON (${(err as Error).message})`, {
      cause: err,
    });
  }
  if (
    json &&
    typeof json === "object" &&
    "version" in json &&
    (json as { version: unknown }).version !== 1
  ) {
    throw new EmulatorStateFileError(
      file,
      `unknown state version ${JSON.stringify((json as { version: unknown }).version)}`,
    );
  }
  const parsed = worldSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EmulatorStateFileError(
      file,
      `${formatPath(issue.path) || "(top level)"}: ${issue.message}`,
    );
  }
  // No cast: the schema's type (state-schema.ts) holds its output to World.
  return { world: parsed.data, text };
}
