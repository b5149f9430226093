/** One entry of a zip's central directory, as ./central-directory.ts reads it (sizes and offsets in bytes). */
export type ZipEntry = {
  fileName: string;
  compressionMethod: number;
  generalPurposeBitFlag: number;
  /** CRC-32 of the inflated data, as the central directory declares it. */
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  relativeOffsetOfLocalHeader: number;
  /**
   * Where this entry's record (local header, name, extra field, data) must end: the next record's
   * local header, or the central directory (./zip-bomb.ts).
   */
  recordLimit: number;
};
