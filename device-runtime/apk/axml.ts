/**
 * Binary XML (AXML) reader, for AndroidManifest.xml.
 *
 * Why our own reader: the npm options (`adbkit-apkreader`, `app-info-parser`'s bundled reader,
 * `node-apk-parser`) are unmaintained, read the whole file with unchecked offsets (a damaged
 * manifest crashes or loops), and resolve attribute names only from the string pool — which
 * obfuscators blank out. This reader follows AOSP `ResXMLParser`: every chunk size and offset is
 * bounds-checked, and attribute names come from the resource map (android:attr ids) first.
 */
import { ApkError, check } from './apk-error.js';
import { ByteView } from './bytes.js';
import { StringPool } from './string-pool.js';

export const ANDROID_NS = 'http://schemas.android.com/apk/res/android';

/** android:attr resource ids → names (framework `public.xml`); used when the pool name is missing or obfuscated. */
const ANDROID_ATTRS: Record<number, string> = {
  0x01010001: 'label',
  0x01010002: 'icon',
  0x01010003: 'name',
  0x01010006: 'permission',
  0x01010009: 'protectionLevel',
  0x0101000c: 'hasCode',
  0x0101000e: 'enabled',
  0x0101000f: 'debuggable',
  0x01010010: 'exported',
  0x01010011: 'process',
  0x01010018: 'authorities',
  0x0101001c: 'priority',
  0x01010024: 'value',
  0x01010025: 'resource',
  0x01010026: 'mimeType',
  0x01010027: 'scheme',
  0x01010028: 'host',
  0x0101002a: 'path',
  0x01010202: 'targetActivity',
  0x0101020c: 'minSdkVersion',
  0x0101021b: 'versionCode',
  0x0101021c: 'versionName',
  0x01010270: 'targetSdkVersion',
  0x01010271: 'maxSdkVersion',
  0x01010281: 'glEsVersion',
  0x0101028e: 'required',
  0x010103a9: 'isolatedProcess',
  0x0101048e: 'multiArch',
  0x010104ea: 'extractNativeLibs',
  0x01010515: 'use32bitAbi',
  0x01010549: 'splitName',
  0x0101054b: 'isolatedSplits',
  0x01010554: 'requiredFeature',
  0x0101055b: 'isFeatureSplit',
  0x01010572: 'compileSdkVersion',
  0x01010591: 'isSplitRequired',
  0x01010599: 'foregroundServiceType',
};

/** A typed attribute value (Res_value). References stay references; the caller resolves them via arsc. */
export type AxmlValue =
  | { type: 'string'; value: string }
  | { type: 'int'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'ref'; value: number }
  | { type: 'other'; dataType: number; value: number };

export type AxmlAttr = { ns: string | null; name: string; resId: number | null; value: AxmlValue };
export type AxmlElement = { name: string; attrs: AxmlAttr[]; children: AxmlElement[] };

const RES_XML_TYPE = 0x0003;
const RES_STRING_POOL_TYPE = 0x0001;
const RES_XML_RESOURCE_MAP_TYPE = 0x0180;
const RES_XML_START_ELEMENT_TYPE = 0x0102;
const RES_XML_END_ELEMENT_TYPE = 0x0103;
/** Deeper nesting than any manifest; bounds recursion in consumers. */
const MAX_DEPTH = 64;

/** Parses a binary XML document and returns its root element. Throws ApkError when corrupt. */
export function parseAxml(buf: Buffer, what = 'AndroidManifest.xml'): AxmlElement {
  const doc = new ByteView(buf, what);
  check(doc.length >= 8, `${what}: too short to be binary XML (${doc.length} bytes)`);
  if (doc.u16(0) !== RES_XML_TYPE) {
    const looksText = buf.subarray(0, 5).toString('latin1') === '<?xml' || buf[0] === 0x3c;
    throw new ApkError(
      `${what}: not binary XML (type 0x${doc.u16(0).toString(16)}${looksText ? ', looks like plain-text XML — the APK was not built by aapt' : ''})`,
    );
  }
  const docSize = Math.min(doc.u32(4), doc.length);
  let pool: StringPool | null = null;
  let resMap: ByteView | null = null;
  const stack: AxmlElement[] = [];
  let root: AxmlElement | null = null;

  let off = doc.u16(2);
  while (off + 8 <= docSize) {
    const type = doc.u16(off);
    const headerSize = doc.u16(off + 2);
    const size = doc.u32(off + 4);
    check(
      size >= 8 && headerSize >= 8 && headerSize <= size && off + size <= docSize,
      `${what}: chunk at ${off} has bad size ${size}`,
    );
    const chunk = doc.sub(off, size);
    if (type === RES_STRING_POOL_TYPE) {
      pool ??= new StringPool(chunk);
    } else if (type === RES_XML_RESOURCE_MAP_TYPE) {
      resMap = chunk.sub(headerSize, size - headerSize);
    } else if (type === RES_XML_START_ELEMENT_TYPE) {
      check(pool !== null, `${what}: element before string pool`);
      check(stack.length < MAX_DEPTH, `${what}: elements nested deeper than ${MAX_DEPTH}`);
      const el = readElement(chunk, headerSize, pool, resMap);
      if (stack.length > 0) stack[stack.length - 1]!.children.push(el);
      else if (root === null) root = el;
      stack.push(el);
    } else if (type === RES_XML_END_ELEMENT_TYPE) {
      stack.pop();
    }
    off += size;
  }
  if (root === null) throw new ApkError(`${what}: no root element`);
  return root;
}

function readElement(chunk: ByteView, headerSize: number, pool: StringPool, resMap: ByteView | null): AxmlElement {
  const ext = headerSize; // ResXMLTree_attrExt follows the node header
  const name = pool.get(chunk.u32(ext + 4)) ?? '';
  const attrStart = chunk.u16(ext + 8);
  const attrSize = chunk.u16(ext + 10);
  const attrCount = chunk.u16(ext + 12);
  check(attrSize >= 20, `${chunk.what}: attribute size ${attrSize} too small`);
  const attrs: AxmlAttr[] = [];
  for (let i = 0; i < attrCount; i++) {
    const a = ext + attrStart + i * attrSize;
    const nsIdx = chunk.u32(a);
    const nameIdx = chunk.u32(a + 4);
    const raw = chunk.u32(a + 8);
    const dataType = chunk.u8(a + 15);
    const data = chunk.u32(a + 16);
    const resId = resMap && nameIdx * 4 + 4 <= resMap.length ? resMap.u32(nameIdx * 4) : null;
    const ns = pool.get(nsIdx);
    const known = resId !== null ? ANDROID_ATTRS[resId] : undefined;
    const attrName = known ?? pool.get(nameIdx) ?? '';
    attrs.push({ ns: known ? ANDROID_NS : ns, name: attrName, resId, value: typedValue(pool, raw, dataType, data) });
  }
  return { name, attrs, children: [] };
}

function typedValue(pool: StringPool, raw: number, dataType: number, data: number): AxmlValue {
  switch (dataType) {
    case 0x03:
      return { type: 'string', value: pool.get(raw !== 0xffffffff ? raw : data) ?? '' };
    case 0x01:
      return { type: 'ref', value: data };
    case 0x10:
      return { type: 'int', value: data | 0 };
    case 0x11:
      return { type: 'int', value: data >>> 0 };
    case 0x12:
      return { type: 'bool', value: data !== 0 };
    default:
      if (raw !== 0xffffffff) return { type: 'string', value: pool.get(raw) ?? '' };
      return { type: 'other', dataType, value: data };
  }
}
