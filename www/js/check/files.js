// Reading files for the checker: the bytes go to the reader worker (reader.js), which
// returns their text or the reason it can't; a web page's markup comes back and is turned
// into text here, by the browser's own HTML parser (workers have none).

/** The extensions and types the file pickers offer. */
export const ACCEPT = '.docx,.odt,.pdf,.html,.htm,.md,.markdown,.txt,text/plain,text/html,text/markdown,application/pdf,'
  + 'application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.oasis.opendocument.text';

let reader = null;
let nextId = 0;
const pending = new Map();

function failAll(reason) {
  for (const { reject } of pending.values()) reject(new Error(reason));
  pending.clear();
  reader = null;
}

function ensureReader() {
  if (reader) return reader;
  reader = new Worker(new URL('./reader.js', import.meta.url), { type: 'module' });
  reader.onmessage = (e) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    pending.delete(e.data.id);
    p.resolve(e.data);
  };
  reader.onerror = (e) => {
    e.preventDefault();
    failAll(`the file reader could not start (${e.message || 'its script did not load'})`);
  };
  return reader;
}

const BLOCKS = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'TABLE', 'TR', 'UL', 'CAPTION']);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'SVG', 'MATH', 'IFRAME', 'OBJECT', 'BUTTON', 'SELECT']);

/** The text a reader sees in an HTML page: block elements end paragraphs, <br> a line; scripts and styles are left out. */
export function htmlToText(html) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const out = [];
  const walk = (node, pre) => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === Node.TEXT_NODE) {
        out.push(pre ? n.data : n.data.replace(/\s+/g, ' '));
      } else if (n.nodeType === Node.ELEMENT_NODE && !SKIP.has(n.tagName)) {
        if (n.tagName === 'BR') { out.push('\n'); continue; }
        if (n.tagName === 'TD' || n.tagName === 'TH') out.push('\t');
        const block = BLOCKS.has(n.tagName);
        if (block) out.push('\n\n');
        walk(n, pre || n.tagName === 'PRE');
        if (block) out.push('\n\n');
      }
    }
  };
  walk(doc.body ?? doc.documentElement, false);
  return out.join('').replace(/[ \t]*\n[ \t]*/g, '\n').replace(/\n{3,}/g, '\n\n').replace(/^[ \t]+|[ \t]+$/gm, '').trim();
}

/**
 * Reads `file` (a File): `{ name, ok: true, text, kind }` or `{ name, ok: false, reason }`,
 * the reason a sentence that says why the file can't be used.
 */
export async function readFile(file) {
  let r;
  try {
    const bytes = await file.arrayBuffer();
    const w = ensureReader();
    const id = ++nextId;
    r = await new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage({ id, name: file.name, bytes }, [bytes]);
    });
  } catch (err) {
    return { name: file.name, ok: false, reason: `${err.message}. Paste its text instead, or reload the page.` };
  }
  if (!r.ok) return { name: file.name, ok: false, reason: r.reason };
  const text = r.html !== undefined ? htmlToText(r.html) : r.text;
  if (!text.trim()) return { name: file.name, ok: false, reason: 'no text was found in it.' };
  return { name: file.name, ok: true, text, kind: r.kind };
}

/** Reads `files` in order (one at a time: each may be a large PDF). */
export async function readFiles(files) {
  const out = [];
  for (const f of files) out.push(await readFile(f));
  return out;
}
