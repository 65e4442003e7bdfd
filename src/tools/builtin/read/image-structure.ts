/**
 * A structural check of an image file for when no decoder (sharp) is available: the container
 * must be complete and its checksums right. It catches what happens to files in practice — cut
 * off by an interrupted download or copy, overwritten in part — though not every bad pixel.
 */
import { crc32 } from 'node:zlib';
import type { ImageMediaType } from './image-info';

/** Why the image is broken, or undefined when its structure is whole. */
export function findStructuralDamage(bytes: Uint8Array, type: ImageMediaType): string | undefined {
  switch (type) {
    case 'image/png':
      return pngDamage(bytes);
    case 'image/jpeg':
      return jpegDamage(bytes);
    case 'image/gif':
      return gifDamage(bytes);
    case 'image/webp':
      return webpDamage(bytes);
  }
}

// Chunks of length, type, data and a CRC over type and data, from IHDR to IEND.
function pngDamage(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let first = true;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const end = offset + 12 + length;
    if (end > bytes.length) return `the ${type} chunk is cut off`;
    if (first && type !== 'IHDR') return 'it does not start with an IHDR chunk';
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== view.getUint32(offset + 8 + length)) {
      return `the ${type} chunk's checksum is wrong`;
    }
    if (type === 'IEND') return undefined;
    first = false;
    offset = end;
  }
  return 'the file ends before its IEND chunk';
}

// Marker segments up to the scan, then entropy-coded data that an end-of-image marker closes.
function jpegDamage(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return `there is no marker at byte ${offset}`;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = view.getUint16(offset + 2);
    if (length < 2 || offset + 2 + length > bytes.length) return 'a segment is cut off';
    offset += 2 + length;
    if (marker === 0xda) {
      for (let i = bytes.length - 2; i >= offset; i--) {
        if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return undefined;
      }
      return 'the image data is cut off (no end-of-image marker)';
    }
  }
  return 'the file ends before its image data';
}

// A complete GIF ends with the trailer byte 0x3B (some writers pad after it with zeros).
function gifDamage(bytes: Uint8Array): string | undefined {
  let end = bytes.length - 1;
  while (end > 12 && bytes[end] === 0) end--;
  return bytes[end] === 0x3b && end > 12 ? undefined : 'the file is cut off (no GIF trailer)';
}

// RIFF size covers the file; chunks of four-character type, little-endian size and padded data.
function webpDamage(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 20) return 'the file is cut off';
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > bytes.length) return 'the file is cut off (shorter than its RIFF size)';
  let offset = 12;
  while (offset + 8 <= riffEnd) {
    const size = view.getUint32(offset + 4, true);
    offset += 8 + size + (size % 2);
    if (offset > riffEnd) return 'a chunk is cut off';
  }
  return offset === 12 ? 'it has no image chunk' : undefined;
}
