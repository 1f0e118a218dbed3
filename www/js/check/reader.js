// The file reader's worker: turns a dropped or picked file into plain text, off the main
// thread. It goes by the file's bytes (its extension only breaks ties between text formats):
//   .docx (Word)           mammoth's raw text, paragraphs kept
//   .odt (OpenDocument)    content.xml unzipped by fflate, read by odtText below
//   .pdf                   pdf.js's text items, rebuilt into lines and paragraphs (pdfText)
//   .html / .htm           returned as markup: the page turns it into text with the browser's
//                          own HTML parser (workers have no DOMParser)
//   .md                    its markup taken out (markdownText)
//   .txt and other text    UTF-8 (or UTF-16 with a byte-order mark, or Windows-1252)
// Anything else is refused with the reason: old .doc, RTF, images, spreadsheets, archives,
// binary data, a PDF without a text layer (a scan).
// The readers load on first use from ../../vendor/ (copied from node_modules by
// scripts/demo-vendor.mjs; sw.js keeps them for offline use). A reader that can't be loaded
// is said to be missing, for this type of file: the file itself may well be fine.
// In:  { id, name, bytes: ArrayBuffer }
// Out: { id, ok: true, text, kind, html? } or { id, ok: false, reason }

const vendor = (path) => new URL(`../../vendor/${path}`, import.meta.url).href;
const MAX_BYTES = 64 * 1024 * 1024;
// The longest text (or web page) a file may give: about 500,000 words, a long book. A longer
// one is most likely not an essay or a source (a data dump, a whole archive), and would
// freeze the page for tens of seconds in the text box and the check.
const MAX_CHARS = 3_000_000;

/** A file the checker can't use; the message says why and what to do instead. */
class Unreadable extends Error {}

/**
 * The vendored module at `path`, the reader for `what` (e.g. 'Word documents (.docx)');
 * Unreadable when it does not load (offline before it was kept, or not served).
 */
async function loadReader(what, path) {
  try {
    return await import(vendor(path));
  } catch (err) {
    throw new Unreadable(self.navigator?.onLine === false
      ? `the reader for ${what} is not available offline: this browser is offline and has no saved copy of it. Open the file again when online, or paste its text instead.`
      : `the reader for ${what} could not be loaded (${err?.message ?? err}). Reload the page and open the file again, or paste its text instead.`);
  }
}

const startsWith = (b, sig, at = 0) => sig.every((x, i) => b[at + i] === x);
const ascii = (s) => [...s].map((c) => c.charCodeAt(0));

/** What the bytes are: 'pdf', 'zip', 'ole', 'rtf', 'image', or 'text' (to be decoded and checked). */
function sniff(b) {
  const head = new TextDecoder('latin1').decode(b.subarray(0, 1024));
  if (head.includes('%PDF-')) return 'pdf';
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(b, ascii('{\\rtf'))) return 'rtf';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47]) || startsWith(b, [0xff, 0xd8, 0xff]) || startsWith(b, ascii('GIF8'))
    || (startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8)) || startsWith(b, [0x49, 0x49, 0x2a, 0x00])
    || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) || startsWith(b, ascii('ftypheic'), 4) || startsWith(b, ascii('ftypavif'), 4)) return 'image';
  return 'text';
}

const extension = (name) => (name.match(/\.([^.]+)$/)?.[1] ?? '').toLowerCase();

/** Text decoded from bytes, or Unreadable when they are not text. */
function decodeText(b) {
  let text;
  if (startsWith(b, [0xef, 0xbb, 0xbf])) text = new TextDecoder('utf-8').decode(b.subarray(3));
  else if (startsWith(b, [0xff, 0xfe])) text = new TextDecoder('utf-16le').decode(b.subarray(2));
  else if (startsWith(b, [0xfe, 0xff])) text = new TextDecoder('utf-16be').decode(b.subarray(2));
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(b);
    } catch {
      // Not UTF-8: an older Windows or Mac text file is Windows-1252; binary data has NULs.
      if (b.includes(0)) throw new Unreadable('it is binary data, not text.');
      text = new TextDecoder('windows-1252').decode(b);
    }
  }
  // Control characters (other than tab, line breaks, form feed) and U+FFFD mark binary data.
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0x7f || c === 0xfffd) bad++;
  }
  if (bad > 2 && bad > text.length / 200) throw new Unreadable('it is binary data, not text.');
  return text;
}

// ------------------------------------------------------------------ zip: .docx and .odt

let fflate = null;
let mammoth = null;

/** The names in a zip and the entries `wanted` (name → bytes). */
async function unzip(bytes, wanted) {
  fflate ??= await loadReader('Word and OpenDocument files (.docx, .odt)', 'fflate/fflate.js');
  const names = [];
  const files = fflate.unzipSync(bytes, {
    filter: (f) => {
      names.push(f.name);
      return wanted.includes(f.name);
    },
  });
  return { names, files };
}

const ODF_TYPES = {
  'application/vnd.oasis.opendocument.spreadsheet': 'a spreadsheet (.ods)',
  'application/vnd.oasis.opendocument.presentation': 'a presentation (.odp)',
  'application/vnd.oasis.opendocument.graphics': 'a drawing (.odg)',
};

async function readZip(bytes) {
  let z;
  try {
    z = await unzip(bytes, ['mimetype', 'content.xml']);
  } catch (err) {
    if (err instanceof Unreadable) throw err;
    throw new Unreadable(`it looks like a Word or OpenDocument file, but it is damaged (${err.message}).`);
  }
  const mime = z.files.mimetype ? new TextDecoder().decode(z.files.mimetype).trim() : '';
  if (z.names.includes('word/document.xml')) {
    mammoth ??= await loadMammoth();
    const r = await mammoth.extractRawText({ arrayBuffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
    return { kind: 'Word document', text: r.value };
  }
  if (mime === 'application/vnd.oasis.opendocument.text' || (mime === '' && z.files['content.xml'])) {
    return { kind: 'OpenDocument text', text: odtText(new TextDecoder().decode(z.files['content.xml'])) };
  }
  if (ODF_TYPES[mime]) throw new Unreadable(`it is ${ODF_TYPES[mime]}, not a text document.`);
  if (z.names.some((n) => n.startsWith('xl/'))) throw new Unreadable('it is an Excel spreadsheet, not a text document.');
  if (z.names.some((n) => n.startsWith('ppt/'))) throw new Unreadable('it is a PowerPoint presentation, not a text document.');
  throw new Unreadable('it is a zip archive, not a document: unpack it and add the files inside.');
}

/** mammoth's browser build is a UMD script: run as a module, it sets self.mammoth. */
async function loadMammoth() {
  await loadReader('Word documents (.docx)', 'mammoth/mammoth.browser.min.js');
  if (!self.mammoth) throw new Unreadable('the reader for Word documents (.docx) did not start. Reload the page and open the file again, or paste its text instead.');
  return self.mammoth;
}

const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const unescapeXml = (s) => s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, e) => (e[0] === '#'
  ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
  : ENTITIES[e] ?? m));

/**
 * The text of an OpenDocument content.xml: each paragraph and heading (text:p, text:h)
 * ends with a blank line; text:s, text:tab and text:line-break become their spaces; notes
 * (footnotes, endnotes) go after the body, as a reader of the printed page meets them;
 * comments, deleted tracked changes and the document's settings are left out.
 */
export function odtText(xml) {
  const SKIP = new Set(['office:annotation', 'text:tracked-changes', 'text:sequence-decls', 'office:forms', 'text:note-citation', 'office:annotation-end']);
  const BLOCK = new Set(['text:p', 'text:h']);
  const body = [], notes = [];
  let out = body, inText = false, skip = 0, para = 0;
  const re = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([\w:.-]+)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>|([^<]+)/g;
  let m;
  while ((m = re.exec(xml))) {
    const [, cdata, close, tag, attrs, selfClose, chars] = m;
    if (chars !== undefined || cdata !== undefined) {
      // Text outside a paragraph is the file's indentation; inside one, whitespace collapses.
      if (inText && !skip && para) out.push(cdata ?? unescapeXml(chars.replace(/[\t\n\r ]+/g, ' ')));
      continue;
    }
    if (!tag) continue;
    if (close) {
      if (tag === 'office:text') inText = false;
      else if (SKIP.has(tag)) skip--;
      else if (tag === 'text:note-body') out = body;
      if (BLOCK.has(tag)) para = Math.max(0, para - 1);
      if (inText && !skip && BLOCK.has(tag)) out.push('\n\n');
      continue;
    }
    if (tag === 'office:text') inText = !selfClose;
    if (!inText || skip) {
      if (!selfClose && SKIP.has(tag)) skip++;
      continue;
    }
    if (SKIP.has(tag)) {
      if (!selfClose) skip++;
    } else if (tag === 'text:s') {
      out.push(' '.repeat(Number(attrs.match(/text:c="(\d+)"/)?.[1] ?? 1)));
    } else if (tag === 'text:tab') {
      out.push('\t');
    } else if (tag === 'text:line-break') {
      out.push('\n');
    } else if (tag === 'text:note-body' && !selfClose) {
      out = notes;
    } else if (BLOCK.has(tag)) {
      if (selfClose) out.push('\n\n');
      else para++;
    }
  }
  return tidy(body.join('') + (notes.length ? `\n\n${notes.join('')}` : ''));
}

// ------------------------------------------------------------------ PDF

let pdfjs = null;

async function loadPdfjs() {
  if (!pdfjs) {
    const lib = await loadReader('PDF files', 'pdfjs/pdf.min.mjs');
    // This is already a worker: pdf.js runs its parser here instead of starting another.
    globalThis.pdfjsWorker ??= await loadReader('PDF files', 'pdfjs/pdf.worker.min.mjs');
    pdfjs = lib;
  }
  return pdfjs;
}

const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;
const PAGE_NUMBER = /^\s*(page\s*)?\d{1,4}(\s*(of|\/)\s*\d{1,4})?\s*$/i;

/**
 * A page's text items as lines: [{ text, x, y, h }] in the order the page draws them (a
 * column before the next, as the writing program laid them out).
 */
function pageLines(items) {
  const lines = [];
  let cur = null, endX = 0;
  for (const it of items) {
    if (!('str' in it)) continue;
    const x = it.transform[4], y = it.transform[5], h = Math.abs(it.transform[3]) || it.height || 10;
    if (cur && it.str && Math.abs(y - cur.y) > 0.5 * Math.max(h, cur.h)) cur.done = true;
    if (!cur || cur.done) {
      if (!it.str.trim()) continue; // a blank item does not start a line
      cur = { text: '', x, y, h, done: false };
      lines.push(cur);
      endX = x;
    } else if (it.str && cur.text && !/\s$/.test(cur.text) && !/^\s/.test(it.str) && x - endX > 0.15 * h
      && !(CJK.test(cur.text.at(-1)) && CJK.test(it.str[0]))) {
      cur.text += ' ';
    }
    cur.text += it.str;
    if (it.str) {
      cur.h = Math.max(cur.h, h);
      endX = x + it.width;
    }
    if (it.hasEOL) cur.done = true;
  }
  return lines.filter((l) => l.text.trim() && !PAGE_NUMBER.test(l.text));
}

/** Two lines of one paragraph joined: no space after a hyphen, or between CJK characters. */
function joinLine(a, b) {
  if (/[A-Za-z\u00c0-\u024f]-$/.test(a)) return a + b;
  if (CJK.test(a.at(-1)) || CJK.test(b[0])) return a + b;
  return `${a} ${b}`;
}

/**
 * A PDF's text: lines in drawing order, a paragraph ending where the gap to the next line
 * is clearly larger than the usual line pitch or the next line is indented. A jump back up
 * the page (the next column, or the next page) continues the paragraph.
 */
async function readPdf(bytes) {
  const lib = await loadPdfjs();
  let doc;
  try {
    doc = await lib.getDocument({
      data: bytes, cMapUrl: vendor('pdfjs/cmaps/'), cMapPacked: true, standardFontDataUrl: vendor('pdfjs/standard_fonts/'),
      isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0,
    }).promise;
  } catch (err) {
    if (err?.name === 'PasswordException') throw new Unreadable('the PDF is protected by a password: save an unprotected copy.');
    throw new Unreadable(`it is a damaged PDF (${err?.message ?? err}).`);
  }
  const paragraphs = [];
  let para = '', prev = null;
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    const lines = pageLines((await page.getTextContent()).items);
    const pitches = [];
    for (let i = 1; i < lines.length; i++) {
      const d = lines[i - 1].y - lines[i].y;
      if (d > 0 && d < 3 * lines[i].h) pitches.push(d);
    }
    pitches.sort((a, b) => a - b);
    const pitch = pitches.length ? pitches[pitches.length >> 1] : 0;
    for (const line of lines) {
      const text = line.text.replace(/\s+/g, ' ').trim();
      if (prev) {
        const down = prev.y - line.y;
        const sameFlow = prev.page === p && down > 0;
        const gap = sameFlow && pitch && down > 1.45 * pitch;
        const indent = sameFlow && line.x - prev.x > 0.8 * line.h && /[.!?:"”。！？]$/.test(para);
        if (gap || indent || (sameFlow && down > 3 * line.h)) {
          paragraphs.push(para);
          para = '';
        }
      }
      para = para ? joinLine(para, text) : text;
      prev = { y: line.y, x: line.x, page: p };
    }
    page.cleanup();
  }
  if (para) paragraphs.push(para);
  const pages = doc.numPages;
  await doc.destroy();
  const text = paragraphs.join('\n\n');
  if (text.replace(/\s/g, '').length < 20 * Math.min(pages, 3)) {
    throw new Unreadable(`the PDF has no text layer (${pages === 1 ? 'its page is' : `its ${pages} pages are`} images, as in a scan). The checker needs text: use the PDF the writing program saved, or run it through OCR first.`);
  }
  return { kind: `PDF, ${pages} page${pages > 1 ? 's' : ''}`, text };
}

// ------------------------------------------------------------------ Markdown and tidying

/** Markdown as the text a reader sees: headings, list marks, emphasis, link targets and fences taken out; a paragraph's lines joined. */
export function markdownText(md) {
  const out = [];
  let para = [], fence = null;
  const flush = () => {
    if (para.length) out.push(para.join(' '));
    para = [];
  };
  for (const raw of md.replace(/\r\n?/g, '\n').split('\n')) {
    const f = raw.match(/^\s*(```+|~~~+)/);
    if (f) {
      flush();
      fence = fence ? (raw.trim().startsWith(fence) ? null : fence) : f[1];
      continue;
    }
    if (fence) {
      out.push(raw); // code keeps its lines
      continue;
    }
    if (/^\s*$/.test(raw)) { flush(); continue; }
    if (/^\s*(=+|-{3,}|\*{3,}|_{3,})\s*$/.test(raw)) { flush(); continue; } // setext underline, rule
    if (/^\s*\[[^\]]+\]:\s*\S+/.test(raw)) continue; // link definition
    let line = raw.replace(/^\s{0,3}#{1,6}\s+/, (m) => (flush(), '')).replace(/\s+#+\s*$/, '')
      .replace(/^\s*(>\s*)+/, '').replace(/^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, (m) => (flush(), ''));
    line = line.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<(https?:[^>]+)>/g, '$1').replace(/<\/?[A-Za-z][^>]*>/g, '')
      .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2').replace(/(^|[^\w*])([*_])(?=\S)([^*_]*?\S)\2(?![\w*])/g, '$1$3')
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1').replace(/`+([^`]+)`+/g, '$1').replace(/\\([\\`*_{}[\]()#+\-.!>])/g, '$1');
    para.push(line.trim());
    if (/ {2}$|\\$/.test(raw)) flush(); // a hard line break
  }
  flush();
  return tidy(out.join('\n\n'));
}

/** Line ends normalised, no trailing spaces, at most one blank line in a row. */
function tidy(text) {
  return text.replace(/\r\n?/g, '\n').replace(/[ \t]+\n/g, '\n').replace(/\n[ \t]*\n[ \t]*/g, '\n\n').replace(/\n{3,}/g, '\n\n').trim();
}

// ------------------------------------------------------------------ dispatch

async function read(name, bytes) {
  if (bytes.length === 0) throw new Unreadable('the file is empty.');
  if (bytes.length > MAX_BYTES) throw new Unreadable(`it is ${(bytes.length / 1048576).toFixed(0)} MB; the checker reads files up to ${MAX_BYTES / 1048576} MB.`);
  const ext = extension(name);
  switch (sniff(bytes)) {
    case 'pdf': return readPdf(bytes);
    case 'zip': return readZip(bytes);
    case 'ole': throw new Unreadable(ext === 'doc' || ext === 'dot'
      ? 'it is an old Word 97–2003 file (.doc), which can’t be read here: open it in Word or LibreOffice and save it as .docx or PDF.'
      : 'it is an old Microsoft Office file (Word 97–2003 or similar), which can’t be read here: save it as .docx or PDF.');
    case 'rtf': throw new Unreadable('it is Rich Text (.rtf), which can’t be read here: open it in Word or LibreOffice and save it as .docx or PDF.');
    case 'image': throw new Unreadable('it is an image. The checker compares text, and does not read text in pictures (no OCR): use the document the student wrote.');
    default: {
      if (['doc', 'xls', 'xlsx', 'ppt', 'pptx', 'pages', 'key', 'numbers', 'epub', 'zip'].includes(ext)) throw new Unreadable(`a .${ext} file that is not in its usual format (damaged, or renamed).`);
      const text = decodeText(bytes);
      if (['html', 'htm', 'xhtml'].includes(ext) || /^\s*(<!doctype html|<html[\s>])/i.test(text)) return { kind: 'web page', html: text };
      if (['md', 'markdown'].includes(ext)) return { kind: 'Markdown', text: markdownText(text) };
      return { kind: 'text', text: tidy(text) };
    }
  }
}

self.onmessage = async (e) => {
  const { id, name, bytes } = e.data;
  try {
    const r = await read(name, new Uint8Array(bytes));
    if (r.html === undefined && !r.text.trim()) throw new Unreadable('no text was found in it.');
    const chars = (r.text ?? r.html).length;
    if (chars > MAX_CHARS) {
      throw new Unreadable(`its text is ${(chars / 1e6).toFixed(1)} million characters; the checker takes texts of up to ${MAX_CHARS / 1e6} million (about 500,000 words): check it in parts, such as its chapters.`);
    }
    self.postMessage({ id, ok: true, ...r });
  } catch (err) {
    self.postMessage({ id, ok: false, reason: err instanceof Unreadable ? err.message : `it could not be read (${err?.message ?? err}).` });
  }
};
