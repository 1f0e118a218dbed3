// Writes the checker's file fixtures (tests/browser/fixtures/files/): one essay with two
// copied paragraphs as .md, .txt, .html, .docx and .odt (made by pandoc), as a two-column
// PDF, and a Chinese essay as a PDF with an embedded CJK font (made by pdfkit), beside the
// reference texts they copy from. The files are committed, so CI needs neither tool; run
// this again only to change them: `node scripts/demo-fixtures.mjs` (needs pandoc and
// Debian's fonts-droid-fallback).
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';

const out = fileURLToPath(new URL('../tests/browser/fixtures/files/', import.meta.url));
const CJK_FONT = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf';

export const REF_PRESS = [
  'The printing press changed the way knowledge moved through Europe. Before Gutenberg, a book was copied by hand, and a single copy of a long work could take a scribe many months to finish.',
  'Movable type made it possible to set a page once and print hundreds of identical sheets from it. Within fifty years of the first printed Bible, presses were working in more than two hundred towns, and the price of books fell so far that merchants and artisans could afford them.',
  'Printers also standardised spelling and punctuation, because a compositor who set the same words every day preferred one form to many. The habits of the print shop slowly became the rules of the written language.',
  'Not everyone welcomed the change. Some scholars complained that cheap books were full of errors, and rulers soon discovered that pamphlets could spread criticism faster than any preacher.',
].join('\n\n');

export const REF_TELEGRAPH = [
  'The electric telegraph was the first technology to separate communication from transport. A message that once travelled at the speed of a horse could now cross a continent in minutes, and newspapers began to print reports of events that had happened the same morning.',
  'Operators learned to send and receive Morse code by ear, and skilled telegraphers could transmit more than thirty words a minute. The work was demanding, and many offices employed young women, who were paid less than the men beside them.',
  'By the eighteen seventies undersea cables linked Europe with America and India. Governments treated the cables as strategic assets, and during wars they were among the first targets to be cut.',
].join('\n\n');

const pressCopy = REF_PRESS.split('\n\n')[1];
// The telegraph's first paragraph with four words changed.
const telegraphEdited = REF_TELEGRAPH.split('\n\n')[0]
  .replace('first technology', 'earliest invention')
  .replace('cross a continent', 'cross a country')
  .replace('same morning', 'same day');

export const ESSAY_TITLE = 'How new machines changed the way people shared news';
export const ESSAY = [
  'When my grandmother was young, the only way to hear news from another town was to wait for a letter or a visitor. In this essay I look at two inventions that made that wait much shorter, and at what people thought of them at the time.',
  pressCopy,
  'I find it interesting that a change in how books were made could change ordinary people’s lives so much. My school library has thousands of books, and it is hard to imagine a time when one book cost as much as a house.',
  telegraphEdited,
  'Both inventions made information cheaper and faster, but both also worried the people in power. I think this is still true today, when anyone with a phone can publish a story that is read around the world within an hour.',
];
export const COPIED = { verbatim: pressCopy, edited: telegraphEdited };

export const REF_ZH = [
  '北京是中国的首都，也是全国的政治和文化中心。这座城市有三千多年的历史，留下了许多古老的建筑。',
  '故宫位于北京市中心，是明清两代的皇家宫殿。每年都有数以百万计的游客来这里参观，人们在宫殿之间慢慢行走，欣赏屋顶上金色的琉璃瓦。',
  '长城是世界上最著名的古代工程之一，它蜿蜒在中国北方的群山之间。人们常说，不到长城非好汉。',
].join('\n\n');
export const ESSAY_ZH = [
  '我去年夏天第一次去北京旅行，天气非常炎热。爸爸妈妈带着我坐了五个小时的火车，到达的时候已经是晚上了。',
  REF_ZH.split('\n\n')[1],
  '回家以后，我给朋友们讲了很多旅途中的故事。我最喜欢的是胡同里的小吃，下次我还想再去一次。',
];

function pdf(path, draw, size = 'A4') {
  return new Promise((resolve, reject) => {
    // A fixed creation date keeps the file the same from run to run.
    const doc = new PDFDocument({ size, margin: 40, info: { Title: 'fixture', CreationDate: new Date(0) } });
    const s = createWriteStream(path);
    s.on('finish', resolve).on('error', reject);
    doc.pipe(s);
    draw(doc);
    doc.end();
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await mkdir(out, { recursive: true });
  const md = `# ${ESSAY_TITLE}\n\n${ESSAY.join('\n\n')}\n`;
  await writeFile(`${out}essay.md`, md);
  await writeFile(`${out}essay.txt`, `${ESSAY_TITLE}\n\n${ESSAY.join('\n\n')}\n`);
  await writeFile(`${out}ref-press.txt`, `${REF_PRESS}\n`);
  await writeFile(`${out}ref-telegraph.txt`, `${REF_TELEGRAPH}\n`);
  await writeFile(`${out}ref-zh.txt`, `${REF_ZH}\n`);
  for (const ext of ['docx', 'odt', 'html']) {
    execFileSync('pandoc', ['--standalone', '--metadata', 'pagetitle=essay', '-o', `${out}essay.${ext}`, `${out}essay.md`]);
  }
  // Two columns on short pages: the text runs down the left column, then the right one, then
  // on to the next page, so a reader that sorts a page by height would interleave the
  // columns, and paragraphs cross both a column break and a page break.
  await pdf(`${out}essay-2col.pdf`, (doc) => {
    doc.font('Helvetica-Bold').fontSize(14).text(ESSAY_TITLE, { align: 'center' }).moveDown();
    doc.font('Times-Roman').fontSize(12).text(ESSAY.join('\n'), { columns: 2, columnGap: 24, align: 'justify', paragraphGap: 8 });
  }, [595, 260]);
  await pdf(`${out}essay-zh.pdf`, (doc) => {
    doc.font(CJK_FONT).fontSize(18).text('北京旅行记', { align: 'center' }).moveDown();
    doc.fontSize(12).text(ESSAY_ZH.join('\n'), { paragraphGap: 10, lineGap: 4 });
  });
  console.log(`wrote ${out}`);
}
