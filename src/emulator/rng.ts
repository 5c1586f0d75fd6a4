import { createHash } from "node:crypto";

/** A small seeded PRNG (mulberry32): the same seed gives the same world and the same dice. */
export class Rng {
  #state: number;

  constructor(seed: string) {
    this.#state = createHash("sha256").update(seed).digest().readUInt32LE(0);
  }

  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  hex(bytes: number): string {
    let out = "";
    for (let i = 0; i < bytes; i++) out += this.int(0, 255).toString(16).padStart(2, "0");
    return out;
  }

  uuid(): string {
    const h = this.hex(16).split("");
    h[12] = "4";
    h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    const s = h.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

/** A deterministic series for charts: the same key always draws the same numbers. */
export function series(key: string, points: number, min: number, max: number): number[] {
  const rng = new Rng(key);
  return Array.from(
    { length: points },
    () => Math.round((min + rng.next() * (max - min)) * 100) / 100,
  );
}
