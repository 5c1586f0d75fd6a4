import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { seedWorld, type World } from "./world";

/**
 * Holds the world in memory and, with a state file, writes every acknowledged change before the
 * reply: temp file, fsync, rename, fsync of the folder. A kill -9 at any moment leaves either the
 * old file or the new one, both whole.
 */
export class Store {
  readonly world: World;
  readonly #file: string | undefined;

  constructor(seed: string, file: string | undefined, now = Date.now()) {
    this.#file = file;
    const loaded = file ? readState(file) : undefined;
    this.world = loaded ?? seedWorld(seed, now);
    if (file && !loaded) this.save();
  }

  save(): void {
    const file = this.#file;
    if (!file) return;
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, JSON.stringify(this.world));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    try {
      const dir = openSync(dirname(file), "r");
      fsyncSync(dir);
      closeSync(dir);
    } catch {
      // Some file systems refuse fsync on a folder; the rename is still atomic.
    }
  }
}

function readState(file: string): World | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const world = JSON.parse(text) as World;
  if (world.version !== 1) throw new Error(`${file}: unknown emulator state version`);
  return world;
}
