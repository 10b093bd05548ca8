// A .tar.gz written byte for byte the same from the same entries: ustar
// headers in the order given, each with the one time passed in, owner and
// group 0 with no names, and a gzip header with no time or file name.
import { gzipSync } from "node:zlib";

const BLOCK = 512;

function octal(value, width) {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function header(name, mode, size, type, mtime) {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name over 100 bytes: ${name}`);
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, "utf8");
  block.write(octal(mode, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii"); // uid
  block.write(octal(0, 8), 116, "ascii"); // gid
  block.write(octal(size, 12), 124, "ascii");
  block.write(octal(mtime, 12), 136, "ascii");
  block.write(" ".repeat(8), 148, "ascii"); // the checksum counts its own field as spaces
  block.write(type, 156, "ascii");
  block.write("ustar\0", 257, "ascii");
  block.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return block;
}

/**
 * The archive of `entries`: `{ path, mode }` for a directory (path ending in
 * "/"), `{ path, mode, data }` for a file. `mtime` is in seconds since 1970.
 */
export function tarGz(entries, mtime) {
  const parts = [];
  for (const entry of entries) {
    if (entry.path.endsWith("/")) {
      parts.push(header(entry.path, entry.mode, 0, "5", mtime));
    } else {
      const data = Buffer.from(entry.data);
      parts.push(header(entry.path, entry.mode, data.length, "0", mtime), data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK));
    }
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  const gz = gzipSync(Buffer.concat(parts), { level: 9 });
  gz[9] = 3; // the gzip header's OS byte: Unix, whichever system wrote it
  return gz;
}
