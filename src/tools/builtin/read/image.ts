/**
 * Prepares an image for the API: as-is when it is within the limits, otherwise shrunk with
 * `sharp` when that package is installed, otherwise refused with a way out. An image that does
 * not decode is refused too: sent to the API it would fail that request and every later one,
 * since the conversation keeps carrying it.
 */
import { ToolError } from '../../tool';
import { loadOptionalModule } from '../shared/optional-module';
import { type ImageMediaType, type ImageSize, readImageSize } from './image-info';
import { findStructuralDamage } from './image-structure';

/** The API's limit on one image, measured on the base64 text. */
export const MAX_IMAGE_BASE64_BYTES = 5 * 1024 * 1024;
/** Larger images are scaled down by the API anyway; shrinking here saves upload and tokens. */
export const TARGET_LONG_EDGE = 1568;
/** Beyond this the API rejects the image outright. */
export const MAX_API_LONG_EDGE = 8000;

export type PreparedImage = {
  base64: string;
  mediaType: ImageMediaType;
  originalSize: number;
  dimensions?: { originalWidth: number; originalHeight: number; displayWidth: number; displayHeight: number };
};

type SharpPipeline = {
  resize(options: {
    width: number;
    height: number;
    fit: 'inside';
    withoutEnlargement: boolean;
  }): SharpPipeline;
  png(options?: { compressionLevel?: number }): SharpPipeline;
  jpeg(options: { quality: number }): SharpPipeline;
  toBuffer(options: { resolveWithObject: true }): Promise<{ data: Buffer; info: ImageSize }>;
  /** Decodes every pixel (of the first frame); a damaged file rejects. */
  stats(): Promise<unknown>;
};
type SharpModule = { default: (input: Uint8Array) => SharpPipeline };

const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

export async function prepareImage(
  path: string,
  bytes: Buffer,
  mediaType: ImageMediaType,
): Promise<PreparedImage> {
  const size = readImageSize(bytes, mediaType);
  const longEdge = size ? Math.max(size.width, size.height) : 0;
  const dimensions = (display: ImageSize | undefined) =>
    size && display
      ? {
          originalWidth: size.width,
          originalHeight: size.height,
          displayWidth: display.width,
          displayHeight: display.height,
        }
      : undefined;
  const fits = base64Length(bytes.length) <= MAX_IMAGE_BASE64_BYTES;
  const sharp = await loadOptionalModule<SharpModule>('sharp');
  if (fits && longEdge <= TARGET_LONG_EDGE) {
    await assertDecodes(path, bytes, mediaType);
    return {
      base64: bytes.toString('base64'),
      mediaType,
      originalSize: bytes.length,
      dimensions: dimensions(size),
    };
  }
  if (sharp) {
    const shrunk = await shrink(sharp, bytes, mediaType).catch((error: unknown) => {
      // Too many pixels to decode is a size problem (answered below), not damage.
      if (/pixel limit/i.test(decoderMessage(error))) return undefined;
      throw damagedImage(path, mediaType, decoderMessage(error));
    });
    if (shrunk) {
      return {
        base64: shrunk.data.toString('base64'),
        mediaType: shrunk.mediaType,
        originalSize: bytes.length,
        dimensions: dimensions(shrunk.info),
      };
    }
  } else if (fits && longEdge <= MAX_API_LONG_EDGE) {
    // Without a resizer the API scales it down itself; only the upload is bigger.
    await assertDecodes(path, bytes, mediaType);
    return {
      base64: bytes.toString('base64'),
      mediaType,
      originalSize: bytes.length,
      dimensions: dimensions(size),
    };
  }
  const sizeText = size ? `${size.width}x${size.height} px, ` : '';
  throw new ToolError(
    `${path} is too large to send as an image (${sizeText}${(bytes.length / 1024 / 1024).toFixed(1)} MB; ` +
      `the limit is 5 MB as base64 and ${MAX_API_LONG_EDGE} px per side). ` +
      `Make a smaller copy with Bash (e.g. ImageMagick: \`convert in.png -resize ${TARGET_LONG_EDGE}x${TARGET_LONG_EDGE} out.png\`) and Read that.`,
  );
}

function damagedImage(path: string, mediaType: ImageMediaType, reason: string): ToolError {
  const format = mediaType.slice('image/'.length).toUpperCase();
  return new ToolError(
    `${path} is not a valid ${format} image (${reason}); it is damaged or incomplete, so it was not sent. ` +
      'If it is still being written, Read it again when it is complete.',
  );
}

/** The decoder's first line, without libvips' generic prefix. */
function decoderMessage(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  return (
    message.replace(/^Input buffer has corrupt header:\s*/, '').trim() || 'its data is corrupt or cut off'
  );
}

/**
 * Why the image does not decode, or undefined when it does: decoded fully with sharp, or its
 * structure checked when sharp is not installed.
 */
export async function findImageDamage(bytes: Buffer, mediaType: ImageMediaType): Promise<string | undefined> {
  const sharp = await loadOptionalModule<SharpModule>('sharp');
  if (!sharp) return findStructuralDamage(bytes, mediaType);
  return sharp
    .default(bytes)
    .stats()
    .then(
      () => undefined,
      (error: unknown) => decoderMessage(error),
    );
}

async function assertDecodes(path: string, bytes: Buffer, mediaType: ImageMediaType): Promise<void> {
  const damage = await findImageDamage(bytes, mediaType);
  if (damage) throw damagedImage(path, mediaType, damage);
}

async function shrink(
  sharp: SharpModule,
  bytes: Buffer,
  mediaType: ImageMediaType,
): Promise<{ data: Buffer; info: ImageSize; mediaType: ImageMediaType } | undefined> {
  const resized = () =>
    sharp.default(bytes).resize({
      width: TARGET_LONG_EDGE,
      height: TARGET_LONG_EDGE,
      fit: 'inside',
      withoutEnlargement: true,
    });
  // Keep PNG (sharp lines and transparency) when it fits; otherwise JPEG at falling quality.
  if (mediaType === 'image/png') {
    const png = await resized().png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
    if (base64Length(png.data.length) <= MAX_IMAGE_BASE64_BYTES) return { ...png, mediaType: 'image/png' };
  }
  for (const quality of [85, 70, 50, 30]) {
    const jpeg = await resized().jpeg({ quality }).toBuffer({ resolveWithObject: true });
    if (base64Length(jpeg.data.length) <= MAX_IMAGE_BASE64_BYTES) return { ...jpeg, mediaType: 'image/jpeg' };
  }
  return undefined;
}
