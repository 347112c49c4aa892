import { crc32, deflateSync } from "node:zlib";

/**
 * Real 1×1 images of each type a client may upload as a profile image, built here byte by byte, so the
 * profile-image tests send what a browser's canvas or a file would hold.
 */

const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u32le = (n: number) => u32be(n).reverse();
const u16le = (n: number) => [n & 0xff, (n >>> 8) & 0xff];

/** A 1×1 PNG of one RGBA pixel: signature, IHDR, IDAT (zlib), IEND, each chunk with its CRC. */
export function png(rgba: readonly [number, number, number, number] = [255, 0, 0, 255]): Uint8Array {
  const chunk = (type: string, data: readonly number[]) => {
    const body = Uint8Array.from([...ascii(type), ...data]);
    return [...u32be(data.length), ...body, ...u32be(crc32(body))];
  };
  const header = [...u32be(1), ...u32be(1), 8, 6, 0, 0, 0]; // width, height, 8-bit RGBA, no interlace
  const scanline = [0, ...rgba]; // filter type 0, then the pixel
  return Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk("IHDR", header), ...chunk("IDAT", [...deflateSync(Uint8Array.from(scanline))]), ...chunk("IEND", [])]);
}

/** A 1×1 GIF89a: a two-colour global table and one LZW-coded pixel. */
export function gif(): Uint8Array {
  return Uint8Array.from([
    ...ascii("GIF89a"), 1, 0, 1, 0, 0x80, 0, 0, // screen 1×1, global colour table of 2
    0xff, 0xff, 0xff, 0, 0, 0, // white, black
    0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, // image descriptor
    2, 2, 0x44, 0x01, 0, // LZW minimum code size 2, one sub-block: clear, index 0, end
    0x3b,
  ]);
}

/** A 1×1 24-bit BMP: file header, BITMAPINFOHEADER, one BGR pixel padded to four bytes. */
export function bmp(): Uint8Array {
  const pixels = [0, 0, 255, 0];
  const infoHeader = [...u32le(40), ...u32le(1), ...u32le(1), ...u16le(1), ...u16le(24), ...u32le(0), ...u32le(pixels.length), ...u32le(2835), ...u32le(2835), ...u32le(0), ...u32le(0)];
  const offset = 14 + infoHeader.length;
  return Uint8Array.from([...ascii("BM"), ...u32le(offset + pixels.length), 0, 0, 0, 0, ...u32le(offset), ...infoHeader, ...pixels]);
}

/**
 * A 1×1 grey baseline JPEG: one quantisation table, one-code Huffman tables (DC difference 0, end of block),
 * and a scan of those two one-bit codes padded with ones.
 */
export function jpeg(): Uint8Array {
  const segment = (marker: number, data: readonly number[]) => [0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff, ...data];
  const oneCodeTable = (tableClass: number) => [tableClass << 4, 1, ...new Array(15).fill(0), 0];
  return Uint8Array.from([
    0xff, 0xd8,
    ...segment(0xdb, [0, ...new Array(64).fill(1)]),
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]),
    ...segment(0xc4, oneCodeTable(0)),
    ...segment(0xc4, oneCodeTable(1)),
    ...segment(0xda, [1, 1, 0, 0, 63, 0]),
    0x3f,
    0xff, 0xd9,
  ]);
}

/**
 * A 1×1 lossless WebP: the RIFF container around a one-pixel VP8L bitstream (the one browsers' WebP
 * feature detection decodes), its chunk padded to an even length.
 */
export function webp(): Uint8Array {
  const vp8l = [0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07];
  const chunk = [...ascii("VP8L"), ...u32le(vp8l.length), ...vp8l, 0];
  return Uint8Array.from([...ascii("RIFF"), ...u32le(4 + chunk.length), ...ascii("WEBP"), ...chunk]);
}

/** `data:image/<type>;base64,<bytes>`, as a browser's FileReader or canvas writes it. */
export function dataUrl(type: string, bytes: Uint8Array): string {
  return `data:image/${type};base64,${Buffer.from(bytes).toString("base64")}`;
}
