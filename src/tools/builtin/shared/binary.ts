/** Recognises files the Read tool cannot show as text, before their bytes reach the model. */
import { extname } from 'node:path';

const BINARY_EXTENSIONS = new Set(
  (
    'zip gz tgz bz2 xz zst 7z rar tar jar war ear apk ipa dmg iso img exe dll so dylib o a lib obj ' +
    'class pyc pyo wasm node bin mp3 mp4 m4a m4v mov avi mkv wav flac ogg oga webm aac wma wmv ' +
    'bmp tif tiff ico icns heic heif avif psd ai sketch woff woff2 ttf otf eot sqlite sqlite3 db ' +
    'doc docx xls xlsx ppt pptx odt ods odp pages numbers key lockb parquet feather pkl pickle npy npz ' +
    'h5 hdf5 onnx pt pth safetensors ckpt tflite'
  ).split(' '),
);

export function hasBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(extname(path).slice(1).toLowerCase());
}

/** Files Read shows as media (images, PDFs): their bytes are never text either. */
const MEDIA_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'pdf']);

/** The name alone says the file is not text: binary, or media Read shows as an image or a PDF. */
export function hasNonTextExtension(path: string): boolean {
  return hasBinaryExtension(path) || MEDIA_EXTENSIONS.has(extname(path).slice(1).toLowerCase());
}

/** NUL bytes in the first 8 KB mark binary data (UTF-16 text is recognised by its BOM first). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

export function binaryRefusal(path: string): string {
  return (
    `${path} is a binary file, which Read cannot show. Read handles text, images (png, jpeg, gif, webp), ` +
    'PDFs and Jupyter notebooks; inspect other files with Bash (e.g. `file`, `xxd | head`, `strings`).'
  );
}
