// Shared by scripts/redis-golden.mjs (which makes the Redis store goldens in
// tests/data/redis/ with old builds) and tests/js/redis-golden.test.mjs (which loads them):
// the pages, a small crawl of English and Chinese articles, as text or as HTML pages of
// three sites, with near-duplicates, aliases (the same content under several URLs) and
// re-checks, in a fixed order (a golden keeps the pages it was made with: the test reads
// them from the golden); and the dump of a namespace (every key, its type and content).

const EN = [
  'The city council voted on Tuesday to extend the night bus service to the northern suburbs, after a year in which ridership on the existing routes rose by almost a third. The new routes will run every twenty minutes between midnight and five in the morning, and the council expects the first buses to leave the central station in early spring. Residents who work late shifts in hospitals and warehouses had asked for the change at several public meetings.',
  'Heavy rain is expected across the coast this weekend, with up to eighty millimetres falling in some valleys before the front moves inland on Sunday evening. Forecasters warned drivers to avoid low roads near rivers and asked campers to leave sites close to the water. Schools will decide on Monday morning whether to open, and the ferry company said crossings could be cancelled at short notice if the wind keeps rising.',
  'A small bakery on Market Street has won the regional bread prize for the second year running, beating more than two hundred entries with a sourdough loaf made from rye grown on a farm ten miles away. The owners, a brother and sister who opened the shop in a former bicycle repair workshop, said the secret was patience: each loaf rests for thirty hours before it goes into a wood-fired oven built by their grandfather.',
  'Researchers at the university have published a study of how honeybees find their way home on cloudy days. By fitting tiny radar tags to more than four hundred bees, the team showed that the insects remember the shape of the horizon and use it as a map when the sun is hidden. The authors say the result could help farmers place hives where bees lose fewer foragers, and they plan a second season of tracking next summer.',
  'The museum reopens its east wing this month after a two-year renovation that replaced the leaking glass roof and added a lift to every floor. Visitors will find the maritime collection rearranged by century, with the restored figurehead of a nineteenth-century trading ship at the centre of the main hall. Entry stays free for children, and the café on the ground floor now opens an hour before the galleries do.',
  'Local football fans queued through the night for tickets to the cup final, the first the club has reached in forty-one years. The stadium sold its allocation of twelve thousand seats within two hours, and the club asked supporters without tickets not to travel to the capital. A big screen will be set up in the town square, where the mayor has promised free tea and soup for anyone who turns up before kick-off.',
  'Software updates for the ticket machines at all railway stations will be installed overnight on Thursday, and the machines will be out of service between one and four in the morning. Passengers travelling in those hours can buy tickets on board without paying the usual penalty fare. The rail company said the update fixes a fault that sometimes charged contactless cards twice for the same journey.',
  'The annual book fair opens on Friday with more than three hundred publishers, a children\'s reading tent and a programme of talks by novelists, historians and poets. Organisers expect about sixty thousand visitors over the four days and recommend coming by train, since parking near the exhibition centre will be limited. Tickets bought online before Thursday are cheaper, and students get in for half price with a valid card.',
  'Volunteers planted nine hundred young oak and beech trees along the old railway line on Saturday, turning a strip of waste ground into the first part of a new woodland walk. The project, paid for by a community fund, will connect two villages by a footpath that avoids the busy main road. More planting days are planned for the autumn, and the organisers are looking for people to water the saplings through the summer.',
  'A new public library opened in the harbour district with a reading room that looks out over the fishing boats, a workshop with sewing machines and three-dimensional printers, and a quiet floor for students. The building reuses the brick walls of an old customs house. On its first day more than two thousand people borrowed books, and the librarians ran out of the new membership cards by early afternoon.',
];

const ZH = [
  '市政府周二宣布，将从下个月起延长地铁末班车的运营时间，工作日最晚一班列车推迟到凌晨十二点半发车。官方表示，过去一年夜间客流增长了近三成，许多在医院、物流仓库和餐饮行业工作的市民多次在听证会上提出需求。新的时刻表公布后，公交公司也会同步调整部分夜间线路，方便乘客换乘。',
  '受冷空气影响，本周末北方大部分地区将出现明显降温，部分地区气温下降十度以上，并伴有大风和降雪。气象台提醒市民及时添加衣物，出行注意交通安全，农业部门也建议农户提前做好温室大棚的加固和保温工作。预计寒潮将在下周二以后逐渐减弱，气温缓慢回升。',
  '一家开在老街上的小面馆最近在网上走红，每天中午门口都排起长队。店主是一对从山西来的夫妇，坚持每天清晨手工和面、擀面，汤底用牛骨熬足八个小时。很多顾客说，这里的味道让他们想起了小时候家里的饭菜。店主表示，不打算开分店，只想把这一家店做好。',
  '研究人员近日发表论文称，他们发现城市中的鸟类会根据交通噪声调整鸣叫的频率和时间。通过在三十多个公园布置录音设备，团队记录了整整一年的数据，发现车流高峰时段鸟类鸣叫明显减少，而清晨和深夜的鸣叫反而增加。研究者认为，城市规划应当为野生动物保留更多安静的绿地。',
  '本市图书馆新馆将于本月底正式开放，新馆共有五层，藏书超过一百二十万册，并设有少儿阅览区、数字资源中心和可以俯瞰江景的自习室。开馆首月，市民凭身份证即可免费办理借书证。图书馆还计划每周末举办读书分享会和亲子阅读活动，欢迎市民参加。',
  '为迎接春季旅游高峰，景区管理处宣布将实行分时段预约入园，每天接待游客上限为三万人次。游客需提前一天在官方小程序上预约，并按照预约时段入园。管理处同时增加了摆渡车班次，新建了两个停车场，并提醒游客错峰出行，避免在节假日当天集中前往。',
];

const TITLES_EN = ['Night buses reach the suburbs', 'Heavy rain on the coast', 'Bakery wins bread prize again', 'How bees find home', 'Museum east wing reopens', 'Fans queue for cup final', 'Ticket machines updated', 'Book fair opens Friday', 'Volunteers plant a woodland walk', 'Harbour library opens'];
const TITLES_ZH = ['地铁末班车延长', '寒潮来袭', '老街面馆走红', '城市鸟类与噪声', '图书馆新馆开放', '景区分时预约'];

// Near-duplicate edits, deterministic.
const edit = {
  // One word (or, in Chinese, two characters) changed.
  word: (t, zh) => (zh ? t.replace('本周', '这周').replace('本月', '这个月').replace('近日', '最近') : t.replace(/\bthe\b/, 'this').replace(/\bmore than\b/, 'over')),
  // A sentence added at the end.
  tail: (t, zh) => t + (zh ? '记者将继续关注后续进展。' : ' Our reporter will follow the story as it develops.'),
  // The last sentence cut.
  cut: (t, zh) => {
    const parts = zh ? t.split('。').filter(Boolean) : t.split(/(?<=\.) /);
    return zh ? parts.slice(0, -1).join('。') + '。' : parts.slice(0, -1).join(' ');
  },
  // A few words changed: still near, but further.
  few: (t, zh) => (zh ? t.replace('市民', '居民').replace('提前', '预先').replace('增加', '增设').replace('宣布', '表示') : t.replace(/\bnew\b/, 'fresh').replace(/\bsaid\b/, 'says').replace(/\bfirst\b/, 'opening').replace(/\bmorning\b/, 'day')),
};

/** The base document `d` (`en3`, `zh1`) with an optional edit: `{ text, zh, title, n }`. */
function doc(d, how) {
  const zh = d.startsWith('zh');
  const n = Number(d.slice(2));
  let text = (zh ? ZH : EN)[n];
  for (const h of how ? how.split('+') : []) text = edit[h](text, zh);
  return { text, zh, title: (zh ? TITLES_ZH : TITLES_EN)[n], n };
}

// Each step: [url, document, edits]. Same URL again: a re-check. Same document and edits
// under another URL: an alias.
const CRAWL = [
  ['https://news.example.com/city/night-buses', 'en0'],
  ['https://news.example.com/weather/coast-rain', 'en1'],
  ['https://www.example.cn/news/subway-late', 'zh0'],
  ['https://news.example.com/food/bakery-prize', 'en2'],
  ['https://news.example.com/city/night-buses?utm_source=rss', 'en0'],
  ['https://www.example.cn/news/cold-wave', 'zh1'],
  ['https://news.example.com/science/bees', 'en3'],
  ['https://mirror.example.org/copy/night-buses', 'en0', 'word'],
  ['https://www.example.cn/food/noodles', 'zh2'],
  ['https://news.example.com/culture/museum', 'en4'],
  ['https://news.example.com/weather/coast-rain', 'en1'],
  ['https://www.example.cn/science/birds', 'zh3'],
  ['https://mirror.example.org/copy/coast-rain', 'en1', 'tail'],
  ['https://news.example.com/sport/cup-final', 'en5'],
  ['https://www.example.cn/news/cold-wave?from=app', 'zh1'],
  ['https://m.example.cn/news/cold-wave', 'zh1', 'word'],
  ['https://news.example.com/travel/ticket-machines', 'en6'],
  ['https://www.example.cn/culture/library', 'zh4'],
  ['https://mirror.example.org/copy/bees', 'en3', 'cut'],
  ['https://news.example.com/culture/book-fair', 'en7'],
  ['https://news.example.com/food/bakery-prize', 'en2'],
  ['https://www.example.cn/travel/booking', 'zh5'],
  ['https://mirror.example.org/copy/noodles', 'zh2', 'tail'],
  ['https://news.example.com/city/woodland', 'en8'],
  ['https://news.example.com/sport/cup-final#comments', 'en5'],
  ['https://mirror.example.org/copy/museum', 'en4', 'few'],
  ['https://www.example.cn/science/birds', 'zh3'],
  ['https://news.example.com/city/harbour-library', 'en9'],
  ['https://mirror.example.org/copy/library-cn', 'zh4', 'cut'],
  ['https://mirror.example.org/copy/book-fair', 'en7', 'word+tail'],
  ['https://news.example.com/amp/city/night-buses', 'en0'],
  ['https://mirror.example.org/copy/booking', 'zh5', 'few'],
  ['https://news.example.com/city/woodland', 'en8'],
  ['https://mirror.example.org/copy/ticket-machines', 'en6', 'tail'],
  ['https://www.example.cn/news/subway-late?page=1', 'zh0'],
  ['https://mirror.example.org/copy/harbour-library', 'en9', 'word'],
  ['https://m.example.cn/food/noodles', 'zh2', 'word'],
  ['https://mirror.example.org/copy/cup-final', 'en5', 'cut'],
  ['https://news.example.com/science/bees?ref=home', 'en3'],
  ['https://mirror.example.org/copy/night-buses', 'en0', 'word'],
];

// The continuation: near-duplicates of stored pages under new URLs, aliases, new pages
// (documents not seen yet, as edits no page had), re-checks, and a stored URL whose content
// changes to another near-duplicate.
const MORE = [
  ['https://news2.example.net/night-buses', 'en0', 'tail'],
  ['https://www.example.cn/news/cold-wave', 'zh1'],
  ['https://news2.example.net/bees', 'en3', 'word'],
  ['https://news.example.com/culture/museum?print=1', 'en4'],
  ['https://news2.example.net/library-cn', 'zh4', 'word'],
  ['https://news2.example.net/woodland', 'en8', 'few'],
  ['https://mirror.example.org/copy/coast-rain', 'en1', 'tail'],
  ['https://news2.example.net/bakery', 'en2', 'cut+tail'],
  ['https://news2.example.net/birds', 'zh3', 'tail'],
  ['https://mirror.example.org/copy/museum', 'en4', 'few+cut'],
  ['https://news2.example.net/cup-final', 'en5', 'word'],
  ['https://news2.example.net/booking', 'zh5', 'word'],
];

/** A page of its site: the host's frame (navigation, side bar, footer) around the article. */
function html(url, d, i) {
  const host = new URL(url).host;
  const zh = d.zh;
  const paras = zh ? d.text.split('。').filter(Boolean).map((s) => `<p>${s}。</p>`) : d.text.split(/(?<=\.) /).map((s) => `<p>${s}</p>`);
  const nav = zh
    ? '<nav><a href="/">首页</a> <a href="/news">新闻</a> <a href="/food">美食</a> <a href="/science">科学</a> <a href="/culture">文化</a></nav>'
    : '<nav><a href="/">Home</a> <a href="/city">City</a> <a href="/weather">Weather</a> <a href="/food">Food</a> <a href="/science">Science</a> <a href="/sport">Sport</a></nav>';
  const side = zh
    ? `<aside><h2>热门文章</h2><ul><li>今日天气预报</li><li>周末去哪儿玩</li><li>本周电影推荐</li></ul><p>阅读 ${120 + ((i * 37) % 900)} 次</p></aside>`
    : `<aside><h2>Most read</h2><ul><li>Weather for the week ahead</li><li>What's on this weekend</li><li>Letters to the editor</li></ul><p>${3 + ((i * 7) % 40)} comments</p></aside>`;
  const foot = zh
    ? `<footer><p>版权所有 © 2024 ${host}</p><p>第 ${1 + (i % 9)} 页，共 9 页</p><p>联系我们 | 隐私政策 | 广告服务</p></footer>`
    : `<footer><p>© 2024 ${host}. All rights reserved.</p><p>Page ${1 + (i % 9)} of 9</p><p>Contact us | Privacy policy | Advertise with us</p></footer>`;
  return `<!doctype html><html lang="${zh ? 'zh' : 'en'}"><head><meta charset="utf-8"><title>${d.title}</title></head><body><header>${nav}</header><main><article><h1>${d.title}</h1>${paras.join('')}</article></main>${side}${foot}</body></html>`;
}

/** `{ pages, more }`: `[{ url, text }]` in order, as text or HTML. */
export function goldenPages({ asHtml }) {
  const make = (steps, from) => steps.map(([url, d, how], j) => {
    const x = doc(d, how);
    return { url, text: asHtml ? html(url, x, from + j) : x.text };
  });
  return { pages: make(CRAWL, 0), more: make(MORE, CRAWL.length) };
}

const b64 = (b) => Buffer.from(b).toString('base64');

/** Every key of the namespace (an ioredis client), its type and full content, sorted (binary as base64; no key may have a TTL). */
export async function dumpNamespace(client, ns) {
  const keys = new Set();
  let cursor = '0';
  do {
    const [next, batch] = await client.scanBuffer(cursor, 'MATCH', `{${ns}}*`, 'COUNT', 1000);
    cursor = next.toString();
    for (const k of batch) keys.add(k.toString('base64'));
  } while (cursor !== '0');
  const out = [];
  for (const k64 of keys) {
    const kb = Buffer.from(k64, 'base64');
    const key = kb.toString('utf8');
    if (!Buffer.from(key, 'utf8').equals(kb)) throw new Error(`key is not UTF-8: ${k64}`);
    const type = await client.type(kb);
    const ttl = await client.pttl(kb);
    if (ttl !== -1) throw new Error(`${key} has a TTL (${ttl})`);
    let value;
    if (type === 'string') value = b64(await client.getBuffer(kb));
    else if (type === 'hash') {
      // Fields and values as buffers (fields are binary: fingerprints, page numbers).
      const raw = await client.callBuffer('HGETALL', kb);
      value = [];
      for (let i = 0; i < raw.length; i += 2) value.push([b64(raw[i]), b64(raw[i + 1])]);
      value.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    } else if (type === 'set') value = (await client.smembersBuffer(kb)).map(b64).sort();
    else throw new Error(`${key}: type ${type} not dumped`);
    out.push({ key, type, value });
  }
  out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return out;
}

/** Writes `keys` (a dump) into Redis (an ioredis client): the namespace as the dump holds it. */
export async function restoreNamespace(client, keys) {
  const buf = (x) => Buffer.from(x, 'base64');
  for (const { key, type, value } of keys) {
    if (type === 'string') await client.set(key, buf(value));
    else if (type === 'hash') await client.hset(key, ...value.flatMap(([f, v]) => [buf(f), buf(v)]));
    else if (type === 'set') await client.sadd(key, ...value.map(buf));
    else throw new Error(`${key}: type ${type} not restored`);
  }
}
