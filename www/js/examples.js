// Example texts for the demo, and deterministic generated documents for the passage
// checker's examples.

export const PAIRS = {
  football: [
    '上海上港在亚冠附加赛中以2比1战胜对手，成功晋级小组赛。比赛第89分钟，替补登场的前锋头球绝杀，' +
      '让全场球迷沸腾。这是上海上港本赛季的首轮正式比赛，主教练赛后表示，球队在小组赛中将面对更强的对手，' +
      '但全队有信心在亚冠赛场走得更远。' +
      '比赛中，上海上港控球率超过六成，全场射门二十次，其中九次射正。对手门将多次做出精彩扑救，一度让比赛陷入僵局。' +
      '赛后，球迷们在看台上久久不愿离去，齐声高唱队歌，庆祝球队在亚冠赛场取得的这场宝贵胜利。' +
      '新赛季伊始，球队引进了多名外援，阵容深度明显提升。',
    // The lightly edited copy: one word changed (精彩 → 关键), 2 bits of 64 flip.
    null,
  ],
  mat: ['the cat sat on the mat', 'the cat sat on a mat'],
  scream: ['the cat sat on the mat', 'we all scream for ice cream'],
};

PAIRS.football[1] = PAIRS.football[0].replace('精彩扑救', '关键扑救');

/** The material's worked example: [feature, weight, 6-bit hash]. */
export const WORKED = [
  ['附加赛', 3, '101001'],
  ['小组赛', 4, '101110'],
  ['首轮', 1, '110001'],
  ['绝杀', 3, '101000'],
  ['上海上港', 5, '101011'],
  ['赛季', 5, '101100'],
  ['亚冠', 5, '111000'],
];

const WORDS = (
  'river market winter teacher garden engine history village window science letter mountain journey problem ' +
  'evening station harvest language painting council bridge forest country doctor morning summer question picture ' +
  'machine library ocean answer kitchen island number project silver theatre weather student company quickly slowly ' +
  'carefully often rarely always never bright quiet ancient modern green heavy simple strange gentle narrow broken ' +
  'hidden walks builds remembers describes follows carries opens measures explains watches finds leaves the a of and ' +
  'in with near after before because while'
).split(' ');

/** A deterministic paragraph of ~90 words (the same generator as the Rust test). */
export function paragraph(seed) {
  let s = BigInt(seed);
  const M = (1n << 64n) - 1n;
  const words = [];
  let len = 0;
  for (let i = 0; i < 90; i++) {
    s = (s * 6364136223846793005n + 1442695040888963407n) & M;
    let w = WORDS[Number((s >> 33n) % BigInt(WORDS.length))];
    if (len === 0) w = w[0].toUpperCase() + w.slice(1);
    len++;
    if (len > 8 && (s >> 20n) % 4n === 0n) { w += '.'; len = 0; }
    words.push(w);
  }
  return words.join(' ') + '.';
}

/** A reference of 20 paragraphs and a submission that copies 2 of them (one lightly edited). */
export function twoOfTwenty() {
  const reference = Array.from({ length: 20 }, (_, i) => paragraph(1000 + i));
  const submission = Array.from({ length: 20 }, (_, i) => paragraph(5000 + i));
  submission[4] = reference[7];
  submission[15] = reference[12].replace(' the ', ' this ');
  const others = Array.from({ length: 4 }, (_, d) => Array.from({ length: 20 }, (_, i) => paragraph(9000 + 100 * d + i)).join('\n\n'));
  return {
    submission: submission.join('\n\n'),
    references: [{ name: 'reference.txt (source of paragraphs 5 and 16)', text: reference.join('\n\n') }, ...others.map((text, d) => ({ name: `unrelated-${d + 1}.txt`, text }))],
  };
}

/** `count` references of about `bytes` each; the submission copies one paragraph from three of them. */
export function stress(count = 200, bytes = 20000) {
  const references = [];
  for (let d = 0; d < count; d++) {
    const paras = [];
    let size = 0;
    for (let i = 0; size < bytes; i++) {
      const p = paragraph(100000 + d * 1000 + i);
      paras.push(p);
      size += p.length + 2;
    }
    references.push({ name: `generated-${String(d + 1).padStart(3, '0')}.txt`, text: paras.join('\n\n') });
  }
  // A submission of 12 paragraphs (about 7 kB). At 20 kB of this generated text (a
  // 110-word vocabulary), some 40-character window matches an unrelated reference by
  // chance, so the submission stays smaller.
  const own = Array.from({ length: 12 }, (_, i) => paragraph(77000 + i));
  own[2] = references[17].text.split('\n\n')[3];
  own[6] = references[120].text.split('\n\n')[10];
  own[9] = references[199 % count].text.split('\n\n')[0];
  return { submission: own.join('\n\n'), references };
}
