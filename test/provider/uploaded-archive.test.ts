import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import yauzl from "yauzl";
import { contentHash, type HashedFile } from "../../src/provider/app/source-hash";
import { useProviderHost } from "../helpers/provider-env";
import { sourceTrees } from "../helpers/source-trees";

/*
 * What create uploads is what check hashed: for every tree of the walk's tests, the archive the
 * emulator received is read back entry by entry, re-hashed, and compared with the hash the App's
 * state holds; its names are the walk's, and its hosting.json is the App's settings.
 */

const kept = mkdtempSync(join(tmpdir(), "hosting-uploads-"));
const env = useProviderHost({ keepArchivesIn: kept }, { listCacheMs: 0 });
afterAll(() => rm(kept, { recursive: true, force: true }));

interface Entry extends HashedFile {
  text: string;
}

/** Every entry of a zip: name, unix mode (644/755), sha256 and text of its bytes. */
function readZip(file: string): Promise<Entry[]> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      const out: Entry[] = [];
      zip.on("error", reject);
      zip.on("end", () => resolve(out));
      zip.on("entry", (e: yauzl.Entry) =>
        zip.openReadStream(e, (e2, s) => {
          if (e2 || !s) return reject(e2 ?? new Error("no stream"));
          const chunks: Buffer[] = [];
          s.on("data", (c: Buffer) => chunks.push(c));
          s.on("end", () => {
            const bytes = Buffer.concat(chunks);
            out.push({
              name: e.fileName,
              mode: (e.externalFileAttributes >>> 16) & 0o777,
              sha256: createHash("sha256").update(bytes).digest("hex"),
              text: bytes.toString("utf8"),
            });
            zip.readEntry();
          });
        }),
      );
      zip.readEntry();
    }),
  );
}

describe.each(sourceTrees)("$name", ({ make, names }) => {
  test("the uploaded archive re-hashes to the hash in state, entry for entry", async () => {
    const urn = env.urn("App", "uploaded");
    const program = { source: await make(), name: "uploaded", ram: 256 };
    const checked = await env.host.check(urn, {}, await env.inputs("App", program));
    expect(checked.failures).toEqual([]);
    const created = await env.host.create(urn, checked.inputs);
    try {
      const entries = await readZip(join(kept, `${created.id}.zip`));
      const files = entries.filter((e) => e.name !== "hosting.json");
      expect(files.map((e) => e.name).sort()).toEqual(names);
      expect(contentHash(entries)).toBe(created.properties.sourceHash);
      expect(created.properties.sourceHash).toBe(checked.inputs.sourceHash);
      const manifest = entries.find((e) => e.name === "hosting.json");
      expect(JSON.parse(manifest!.text)).toEqual({ name: "uploaded", ram: 256 });
      for (const e of entries) expect([0o644, 0o755]).toContain(e.mode);
    } finally {
      await env.host.delete(created.id, urn, created.properties);
    }
  });
});
