/*
 * A .tar.gz of regular files at the archive's root (ustar headers, no folders), the same bytes
 * for the same files: owner 0, mtime fixed, entries in the order given. Enough for a plugin
 * archive, which Pulumi's CLI unpacks file by file with each header's mode.
 */
const { gzipSync } = require("node:zlib");

const BLOCK = 512;

/** One ustar header; numbers are octal, NUL-terminated, in fields of fixed width. */
function header(name, size, mode, mtime) {
  if (Buffer.byteLength(name) > 100 || name.includes("/")) {
    throw new Error(`tar-gz: ${name} is not a short name at the archive's root`);
  }
  const h = Buffer.alloc(BLOCK);
  const octal = (value, at, width) =>
    h.write(`${value.toString(8).padStart(width - 1, "0")}\0`, at, width, "ascii");
  h.write(name, 0, 100, "utf8");
  octal(mode, 100, 8);
  octal(0, 108, 8); // uid
  octal(0, 116, 8); // gid
  octal(size, 124, 12);
  octal(mtime, 136, 12);
  h.write(" ".repeat(8), 148, 8, "ascii"); // the checksum counts its own field as spaces
  h.write("0", 156, 1, "ascii"); // a regular file
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return h;
}

/**
 * The gzipped tar of `files` ({ name, data, mode }), mtime `mtime` (seconds) on every entry.
 * @param {Array<{ name: string, data: Buffer, mode: number }>} files
 */
function tarGz(files, mtime = 0) {
  const parts = [];
  for (const f of files) {
    parts.push(header(f.name, f.data.length, f.mode, mtime), f.data);
    const pad = (BLOCK - (f.data.length % BLOCK)) % BLOCK;
    parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(2 * BLOCK)); // the end: two empty blocks
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

module.exports = { tarGz };
