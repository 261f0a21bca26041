/**
 * What the demo community holds: people, topics, posts and who does what to whom. Fixed texts, so every seed makes
 * the same community; in the languages such a community mixes (English, Chinese, French, Japanese, Spanish).
 * Authors and targets are named by keys (`alice`, `q.d1`), which the seed turns into ids.
 */

export interface DemoUser {
  key: string;
  username: string;
  email: string;
  password: string;
  headline: string;
  bio: string;
  company: string;
  location: string;
  blog: string;
  /** Also uploads a profile cover. */
  cover?: boolean;
}

export const users: DemoUser[] = [
  {
    key: "alice",
    username: "alicewong",
    email: "alice.wong@example.com",
    password: "demo-alice-2026",
    headline: "Backend engineer at the edge",
    bio: "I build APIs on Cloudflare Workers and write about what I measure.",
    company: "Northwind Labs",
    location: "Vancouver",
    blog: "https://alice.example.com",
    cover: true,
  },
  {
    key: "jing",
    username: "李静",
    email: "li.jing@example.com",
    password: "demo-lijing-2026",
    headline: "前端工程师，喜欢 Vue 和 TypeScript",
    bio: "在杭州写前端，业余时间翻译技术文章。",
    company: "云杉科技",
    location: "杭州",
    blog: "",
    cover: true,
  },
  {
    key: "camille",
    username: "camille",
    email: "camille.durand@example.com",
    password: "demo-camille-2026",
    headline: "Boulangère et développeuse web",
    bio: "Du levain le matin, du CSS l'après-midi.",
    company: "",
    location: "Lyon",
    blog: "",
  },
  {
    key: "yuki",
    username: "tanakayuki",
    email: "yuki.tanaka@example.com",
    password: "demo-yuki-2026",
    headline: "週末フォトグラファー",
    bio: "大阪の街と夜景を撮っています。",
    company: "",
    location: "大阪",
    blog: "",
  },
  {
    key: "mateo",
    username: "mateo",
    email: "mateo.garcia@example.com",
    password: "demo-mateo-2026",
    headline: "Fotógrafo de viajes",
    bio: "Android by day, street photography by night.",
    company: "Pixel Norte",
    location: "Valencia",
    blog: "",
  },
  {
    key: "olivia",
    username: "oliviab",
    email: "olivia.brown@example.com",
    password: "demo-olivia-2026",
    headline: "Designer who writes CSS",
    bio: "Design systems, accessibility and too much coffee.",
    company: "Brightline",
    location: "London",
    blog: "",
  },
];

export interface DemoTopic {
  key: string;
  name: string;
  description: string;
}

/** Created by the administrator, each with a cover. */
export const topics: DemoTopic[] = [
  { key: "workers", name: "Cloudflare Workers", description: "Serverless code at the edge: Workers, D1, KV and R2." },
  { key: "frontend", name: "前端开发", description: "HTML、CSS、JavaScript 与各种前端框架的讨论。" },
  { key: "photo", name: "Photography", description: "Cameras, lenses, light, and the stories behind a picture." },
  {
    key: "food",
    name: "Cuisine",
    description: "Recettes, techniques et bonnes adresses. Recipes welcome in any language.",
  },
];

export interface DemoPost {
  key: string;
  author: string;
  title: string;
  topics: string[];
  markdown: string;
  /** A picture the author uploads (`POST /api/images`) and shows at the end of the post, with this caption. */
  picture?: string;
}

export const questions: DemoPost[] = [
  {
    key: "q.d1",
    author: "alice",
    title: "How do I keep D1 reads to one round trip per request?",
    topics: ["workers"],
    markdown: [
      "My Worker checks the session token, loads the settings and then reads the page, so every request makes",
      "three trips to D1. From Europe to the primary that is 60 ms before anything useful happens.",
      "",
      "```ts",
      "const user = await db.select().from(tokens).where(eq(tokens.hash, hash));",
      "const options = await db.select().from(settings);",
      "const rows = await db.select().from(questions).limit(15);",
      "```",
      "",
      "Can these go in one `batch()` even though the page depends on who the user is?",
    ].join("\n"),
  },
  {
    key: "q.vue",
    author: "jing",
    title: "Vue 3 和 React 在大型项目中该如何选择？",
    topics: ["frontend"],
    markdown: [
      "我们团队要重写一个有上百个页面的后台系统，成员大多写过 Vue 2。",
      "",
      "- 迁移到 Vue 3 的成本大概有多高？",
      "- React 的生态是否真的更适合大型项目？",
      "",
      "希望有实际经验的朋友分享一下。",
    ].join("\n"),
  },
  {
    key: "q.levain",
    author: "camille",
    title: "Comment conserver son levain pendant les vacances d'été ?",
    topics: ["food"],
    markdown: [
      "Je pars trois semaines en août et je n'ai personne pour nourrir mon levain.",
      "Est-ce qu'il survit au réfrigérateur aussi longtemps, ou faut-il le sécher ?",
    ].join("\n"),
  },
  {
    key: "q.lens",
    author: "yuki",
    title: "初めての単焦点レンズ、35mmと50mmどちらがおすすめですか？",
    topics: ["photo"],
    markdown: "主に街歩きのスナップと、ときどき家族のポートレートを撮ります。カメラはAPS-Cです。",
  },
  {
    key: "q.raw",
    author: "mateo",
    title: "Is it worth shooting RAW on a phone?",
    topics: ["photo"],
    markdown: [
      "My phone can save DNG files, but they are ten times larger than the JPEGs.",
      "For travel photos that I edit in Lightroom, is the difference visible?",
    ].join("\n"),
  },
  {
    key: "q.container",
    author: "olivia",
    title: "Are CSS container queries ready for production?",
    topics: ["frontend"],
    markdown: [
      "I would love to make our card component respond to its column instead of the viewport:",
      "",
      "```css",
      ".card-grid { container-type: inline-size; }",
      "@container (min-width: 30rem) { .card { display: grid; grid-template-columns: 8rem 1fr; } }",
      "```",
      "",
      "Which browsers do we still need a fallback for?",
    ].join("\n"),
  },
];

export interface DemoAnswer {
  key: string;
  author: string;
  question: string;
  markdown: string;
}

export const answers: DemoAnswer[] = [
  {
    key: "a.d1.olivia",
    author: "olivia",
    question: "q.d1",
    markdown:
      "Put the token check in the same batch and make the page query join on it, so it returns nothing when the token is invalid.",
  },
  {
    key: "a.d1.mateo",
    author: "mateo",
    question: "q.d1",
    markdown: [
      "Yes. A D1 `batch()` is one round trip and one transaction. Send the token lookup first and build the",
      "other statements for the user the token claims to be; if the lookup disagrees, drop the results and run",
      "the request again. The retry is rare, and the common case costs **one** trip.",
    ].join("\n"),
  },
  {
    key: "a.vue.alice",
    author: "alice",
    question: "q.vue",
    markdown:
      "We moved 80 pages from Vue 2 to Vue 3 in about two months. The migration build helps a lot; the hard part was replacing old plugins.",
  },
  {
    key: "a.vue.olivia",
    author: "olivia",
    question: "q.vue",
    markdown: "团队熟悉 Vue 的话，我建议继续用 Vue 3。大型项目更取决于规范和组件库，而不是框架本身。",
  },
  {
    key: "a.levain.yuki",
    author: "yuki",
    question: "q.levain",
    markdown:
      "Feed it well, put it in the fridge in a jar with a loose lid, and it will be fine for three weeks. Expect two feedings to wake it up.",
  },
  {
    key: "a.levain.mateo",
    author: "mateo",
    question: "q.levain",
    markdown:
      "Mi abuela lo secaba: extiende una capa fina sobre papel de horno, déjala secar y guárdala en un bote. Se reactiva con agua y harina.",
  },
  {
    key: "a.lens.mateo",
    author: "mateo",
    question: "q.lens",
    markdown:
      "On APS-C a 35 mm lens frames like a 50 mm on full frame: a natural view for the street. I would start there.",
  },
  {
    key: "a.lens.jing",
    author: "jing",
    question: "q.lens",
    markdown: "我用 APS-C 配 50mm（等效 75mm），拍人像很好看，但在室内会觉得有点紧。",
  },
  {
    key: "a.raw.yuki",
    author: "yuki",
    question: "q.raw",
    markdown: "夜景ではRAWの差がはっきり出ます。昼間の風景ならJPEGで十分なことが多いです。",
  },
  {
    key: "a.container.camille",
    author: "camille",
    question: "q.container",
    markdown:
      "Toutes les versions récentes de Chrome, Firefox et Safari les gèrent. Nous gardons une mise en page flex par défaut comme repli.",
  },
];

export const articles: DemoPost[] = [
  {
    key: "p.timing",
    author: "alice",
    title: "Counting D1 round trips with Server-Timing",
    topics: ["workers"],
    markdown: [
      "## Why count them",
      "",
      "Latency to the database dominates a Worker's response time. The browser's network panel shows",
      "`Server-Timing` entries, so the API can report its own cost on every response:",
      "",
      "```",
      'Server-Timing: d1;dur=12.4;desc="1 round trips"',
      "```",
      "",
      "## What we learned",
      "",
      "1. Reads settle at one round trip once authentication rides in the same batch.",
      "2. Writes need two: the write and its re-read cannot always share a batch.",
    ].join("\n"),
  },
  {
    key: "p.vite",
    author: "jing",
    title: "从 Webpack 迁移到 Vite 的一些经验",
    topics: ["frontend"],
    markdown: [
      "上个月我们把一个中型项目从 Webpack 4 迁移到了 Vite。",
      "",
      "## 收获",
      "",
      "- 开发服务器启动从 40 秒降到 2 秒；",
      "- 配置文件从 300 行减少到 60 行。",
      "",
      "## 踩过的坑",
      "",
      "`require` 写法需要全部改成 `import`，部分老旧依赖需要预构建。",
    ].join("\n"),
  },
  {
    key: "p.bread",
    author: "camille",
    title: "Mon pain au levain, pas à pas",
    topics: ["food"],
    markdown: [
      "| étape | durée |",
      "|---|---|",
      "| autolyse | 1 h |",
      "| pétrissage et rabats | 3 h |",
      "| pointage au froid | 12 h |",
      "| cuisson à 250 °C | 40 min |",
      "",
      "Le secret : une hydratation à 72 % et un four bien chaud, avec une cocotte en fonte.",
    ].join("\n"),
  },
  {
    key: "p.osaka",
    author: "yuki",
    title: "大阪で撮る夜景スナップ",
    topics: ["photo"],
    markdown: [
      "道頓堀のネオンは、雨上がりに撮るのがいちばんです。地面の反射で光が二倍になります。",
      "",
      "- 絞り：F2.8",
      "- シャッタースピード：1/60秒",
      "- ISO：1600",
    ].join("\n"),
    picture: "雨上がりの道頓堀",
  },
];

export interface DemoComment {
  key: string;
  author: string;
  /** What it is on: a question, answer or article key, or a comment key for a reply. */
  on: string;
  content: string;
}

export const comments: DemoComment[] = [
  { key: "c.d1.1", author: "jing", on: "q.d1", content: "Do you use Drizzle or raw prepared statements?" },
  { key: "c.d1.2", author: "alice", on: "c.d1.1", content: "Drizzle, with its batch API." },
  { key: "c.mateo.1", author: "alice", on: "a.d1.mateo", content: "The retry idea is neat, thank you!" },
  { key: "c.vue.1", author: "camille", on: "q.vue", content: "Nous avons choisi Vue 3 pour la même raison." },
  { key: "c.levain.1", author: "olivia", on: "a.levain.yuki", content: "Worked for me last summer, four weeks even." },
  { key: "c.levain.2", author: "camille", on: "c.levain.1", content: "Merci, ça me rassure !" },
  { key: "c.lens.1", author: "olivia", on: "q.lens", content: "35mm, no question. You can always crop." },
  { key: "c.raw.1", author: "alice", on: "q.raw", content: "Try both on a sunset and compare the shadows." },
  { key: "c.timing.1", author: "mateo", on: "p.timing", content: "Great write-up. Do you also log the rows read?" },
  { key: "c.timing.2", author: "alice", on: "c.timing.1", content: "Yes, D1 reports them per statement." },
  { key: "c.vite.1", author: "olivia", on: "p.vite", content: "Did you keep any Webpack loaders?" },
  { key: "c.bread.1", author: "yuki", on: "p.bread", content: "素晴らしいレシピですね。今週末に焼いてみます。" },
  { key: "c.osaka.1", author: "mateo", on: "p.osaka", content: "¡Qué buena idea lo del reflejo después de la lluvia!" },
  { key: "c.container.1", author: "jing", on: "a.container.camille", content: "Safari 16 之前的版本需要注意。" },
];

/** Votes: `[voter, target key, "up" | "down"]`. */
export const votes: [string, string, "up" | "down"][] = [
  ["jing", "q.d1", "up"],
  ["mateo", "q.d1", "up"],
  ["olivia", "q.d1", "up"],
  ["alice", "a.d1.mateo", "up"],
  ["jing", "a.d1.mateo", "up"],
  ["camille", "a.d1.mateo", "up"],
  ["alice", "a.d1.olivia", "up"],
  ["yuki", "a.d1.olivia", "down"],
  ["olivia", "q.vue", "up"],
  ["alice", "a.vue.olivia", "up"],
  ["jing", "a.vue.olivia", "up"],
  ["camille", "a.levain.yuki", "up"],
  ["olivia", "a.levain.yuki", "up"],
  ["camille", "a.levain.mateo", "up"],
  ["yuki", "q.raw", "up"],
  ["olivia", "a.lens.mateo", "up"],
  ["yuki", "a.lens.mateo", "up"],
  ["mateo", "a.raw.yuki", "up"],
  ["olivia", "a.container.camille", "up"],
  ["jing", "q.container", "up"],
  ["jing", "p.timing", "up"],
  ["mateo", "p.timing", "up"],
  ["olivia", "p.timing", "up"],
  ["alice", "p.vite", "up"],
  ["olivia", "p.vite", "up"],
  ["yuki", "p.bread", "up"],
  ["mateo", "p.bread", "up"],
  ["mateo", "p.osaka", "up"],
  ["camille", "p.osaka", "up"],
  ["alice", "c.d1.1", "up"],
  ["camille", "c.levain.1", "up"],
];

/** Follows: `[follower, target]`; a target is a user, topic, question or article key. */
export const follows: [string, string][] = [
  ["alice", "workers"],
  ["mateo", "workers"],
  ["jing", "frontend"],
  ["olivia", "frontend"],
  ["alice", "frontend"],
  ["yuki", "photo"],
  ["mateo", "photo"],
  ["camille", "food"],
  ["yuki", "food"],
  ["jing", "alice"],
  ["mateo", "alice"],
  ["olivia", "alice"],
  ["alice", "jing"],
  ["olivia", "jing"],
  ["mateo", "yuki"],
  ["yuki", "mateo"],
  ["camille", "olivia"],
  ["olivia", "q.d1"],
  ["jing", "q.d1"],
  ["alice", "q.raw"],
  ["camille", "q.container"],
  ["mateo", "p.timing"],
  ["camille", "p.osaka"],
];
