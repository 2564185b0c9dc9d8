// The referee's desk: live checking of the log, entry by tapping, judging.
// Hand-written, no build step. Everything user-supplied is put on the page as text
// (textContent), never as HTML; the report is shown in a sandboxed frame without scripts.
"use strict";

const $ = (id) => document.getElementById(id);
const log = $("log");
const SEATS = ["東", "南", "西", "北"];
const NUM = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const SUITS = {
  "萬": NUM.map((n) => n + "萬"),
  "筒": NUM.map((n) => n + "筒"),
  "索": NUM.map((n) => n + "索"),
  "字": ["東", "南", "西", "北", "中", "發", "白"],
  "花": ["春", "夏", "秋", "冬", "梅", "蘭", "竹", "菊"],
};
const ORDER = [].concat(...Object.values(SUITS));
const RECORD = /^\s*(紀錄|记录)\s*[:：]/;
const RULES = /^\s*[規规][則则]\s*[:：]?\s*(\S+)/;
const EXPECT = /^\s*期望\s*[:：]/;

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// ------------------------------------------------------------------ live checking

let lintTimer = null;
let lintTurn = 0;

function query() {
  const params = new URLSearchParams();
  // No profile chosen: the log's own 規則: line decides.
  if ($("profile").value) params.set("profile", $("profile").value);
  for (const pair of $("settings").value.split(/\s+/).filter(Boolean)) params.append("set", pair);
  return params;
}

async function post(path, params) {
  return fetch(path + "?" + params.toString(), {
    method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" }, body: log.value,
  });
}

function scheduleLint() {
  clearTimeout(lintTimer);
  $("lint-state").textContent = "檢查中…";
  $("lint-state").className = "state";
  lintTimer = setTimeout(lint, 350);
}

async function lint() {
  const turn = ++lintTurn;
  let answer;
  try {
    const response = await post("/api/lint", query());
    answer = await response.json();
  } catch (err) {
    if (turn === lintTurn) $("lint-state").textContent = "無法連線";
    return;
  }
  if (turn !== lintTurn) return; // a newer check is on its way
  if (answer.error) {
    showLines([answer.error], []);
    $("lint-state").textContent = answer.error.message;
    return;
  }
  showLines(answer.errors, answer.warnings);
  const n = answer.errors.length + answer.warnings.length;
  $("lint-state").textContent = n ? `${answer.errors.length} 錯誤、${answer.warnings.length} 警告` : "✓ 無誤";
  $("lint-state").className = "state " + (answer.errors.length ? "bad" : n ? "warn" : "ok");
}

function showLines(errors, warnings) {
  const box = $("lines");
  box.textContent = "";
  const below = {};
  for (const e of errors) (below[e.line || 1] = below[e.line || 1] || []).push(["error", e]);
  for (const w of warnings) (below[w.line || 1] = below[w.line || 1] || []).push(["warn", w]);
  const lines = log.value.split("\n");
  lines.forEach((text, i) => {
    const n = i + 1;
    if (!below[n] && !text.trim()) return;
    const row = el("div", { class: "line", "data-line": n });
    row.append(el("span", { class: "no" }, String(n)), el("span", { class: "src" }, text));
    box.append(row);
    for (const [kind, item] of below[n] || []) box.append(diagnostic(kind, item, n));
  });
  const first = box.querySelector(".diag");
  if (first) box.scrollTop = Math.max(0, first.offsetTop - box.offsetTop - 60);
}

function diagnostic(kind, item, n) {
  const box = el("div", { class: "diag " + kind, "data-line": n });
  if (kind === "error" && item.caret) {
    box.append(el("pre", { class: "caret" }, (item.source_line || "") + "\n" + item.caret));
  }
  box.append(el("p", { class: "msg" }, kind === "warn" && item.kind ? `${item.kind}：${item.message}` : item.message));
  if (kind === "error" && item.expected) box.append(el("p", { class: "hint" }, "建議：這裡寫" + item.expected));
  box.addEventListener("click", () => goToLine(n, item.column || 1));
  return box;
}

function goToLine(n, column) {
  const lines = log.value.split("\n");
  let at = 0;
  for (let i = 0; i < n - 1 && i < lines.length; i++) at += lines[i].length + 1;
  log.focus();
  log.setSelectionRange(at + column - 1, at + column - 1);
}

// ------------------------------------------------------------------ the text

function players() {
  const names = {};
  const line = log.value.split("\n").find((l) => /^\s*玩家\s*[:：]/.test(l));
  if (!line) return names;
  for (const m of line.replace(/^\s*玩家\s*[:：]/, "").matchAll(/([東南西北])\s*[=＝]\s*(\S+)/g)) {
    names[m[1]] = m[2];
  }
  return names;
}

// Every change the taps make is undoable: the text before it is kept.
const history = [];

function remember() {
  history.push(log.value);
  if (history.length > 200) history.shift();
  $("undo").disabled = false;
}

function setLog(text, at) {
  log.value = text;
  showLine(at);
  scheduleLint();
  drawSeats();
}

// Scroll the text box so that line `at` (0-based) is in view, without focusing it (a
// focused box opens the phone's keyboard over the taps).
function showLine(at) {
  if (at === undefined) return;
  const height = parseFloat(getComputedStyle(log).lineHeight) || 24;
  log.scrollTop = Math.max(0, (at + 1) * height - log.clientHeight + 16);
}

function insertLines(text, before) {
  // Put `text` before the first line matching `before`, else at the end.
  remember();
  const lines = log.value.replace(/\n+$/, "").split("\n");
  let at = lines.findIndex((l) => before.test(l));
  if (at < 0) at = lines.length;
  lines.splice(at, 0, text);
  setLog(lines.join("\n") + "\n", at + text.split("\n").length - 1);
}

function recordLines() {
  const lines = log.value.split("\n");
  const start = lines.findIndex((l) => RECORD.test(l));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && EXPECT.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

const NUMBERED = /^\s*(\d+)[.、]?\s+/;

function nextNumber() {
  let last = null;
  for (const l of recordLines()) {
    const m = l.match(NUMBERED);
    if (m) last = parseInt(m[1], 10);
  }
  if (last !== null) return String(last + 1) + " ";
  const from = parseInt($("seq-from").value, 10);
  return Number.isFinite(from) && from > 0 ? String(from) + " " : "";
}

// The latest act line as [actor, verb, tiles…], the sequence number left off.
function lastAct() {
  const lines = recordLines().filter((l) => l.trim() && !/^\s*#/.test(l));
  const line = lines[lines.length - 1];
  return line ? line.replace(NUMBERED, "").replace(/[（(].*$/, "").trim().split(/\s+/) : null;
}

function lastDiscard() {
  const lines = recordLines();
  for (let i = lines.length - 1; i >= 0; i--) {
    const words = lines[i].replace(NUMBERED, "").trim().split(/\s+/);
    if (words[1] === "打" && words[2]) return words[2];
  }
  return "";
}

// Header fields: each box writes its own `key: value` line (an empty box removes it).
const HEADER_KEYS = ($("desk").dataset.headerKeys || "").split(" ").filter(Boolean);
const headerLine = (key) => new RegExp("^\\s*" + key + "\\s*[:：]");

function setHeader(key, value) {
  remember();
  const lines = log.value.replace(/\n+$/, "").split("\n");
  const at = lines.findIndex((l) => headerLine(key).test(l));
  const text = `${key}: ${value}`;
  if (at >= 0 && value) lines[at] = text;
  else if (at >= 0) lines.splice(at, 1);
  else if (value) {
    // After the header's last line, before the positions and the record.
    let last = -1;
    const record = lines.findIndex((l) => RECORD.test(l));
    lines.forEach((l, i) => {
      if ((record < 0 || i < record) && HEADER_KEYS.some((k) => headerLine(k).test(l))) last = i;
    });
    lines.splice(last + 1, 0, text);
  }
  setLog(lines.join("\n") + "\n");
}

function readHeader() {
  for (const box of document.querySelectorAll("#header-fields [data-key]")) {
    if (document.activeElement === box) continue;
    const line = log.value.split("\n").find((l) => headerLine(box.dataset.key).test(l));
    let value = line ? line.replace(headerLine(box.dataset.key), "").trim() : "";
    if (box.type === "date") value = (value.match(/^\d{4}-\d{2}-\d{2}/) || [""])[0];
    box.value = value;
  }
}

// ------------------------------------------------------------------ tapping

const SEATS_AND_REFEREE = [...SEATS, "裁判"];
const NEXT = { "東": "南", "南": "西", "西": "北", "北": "東" };
// What each act needs before its line is whole, and which are written the moment they are,
// by its shape: the verb table's terminal, which the page's act buttons carry.
const SHAPE = {};
for (const b of document.querySelectorAll(".act[data-act]")) SHAPE[b.dataset.act] = b.dataset.shape;
const shaped = (...shapes) => Object.keys(SHAPE).filter((v) => shapes.includes(SHAPE[v]));
const BY_REFEREE = [...document.querySelectorAll(".act[data-by-referee]")].map((b) => b.dataset.act);
const CLAIMED = { CHOW: 2, PUNG: 2, KONG_OPEN: 3 };  // a claim's tiles after 用
const CLAIMS = Object.fromEntries(shaped(...Object.keys(CLAIMED)).map((v) => [v, CLAIMED[SHAPE[v]]]));
const ONE_TILE = shaped("V_TILE", "KONG_ADD");      // written once the tile is tapped
const NEEDS_TILE = [...ONE_TILE, ...shaped("KONG_HIDDEN", "FLOWER", "V_SHOW"), ...Object.keys(CLAIMS)];
const ACCUSE = shaped("ACCUSE");                    // SEAT OFFENCE
const AT_ONCE = shaped("EXHAUST", "INSPECT");       // nothing follows
// After a line, the act that usually comes next: a discard passes the turn to the 下家's
// draw; a draw or claim is followed by the same seat's discard; a kong by its replacement.
const FOLLOW = { "摸": "打", "補": "打", "吃": "打", "碰": "打", "明杠": "補", "暗杠": "補",
  "加杠": "補", "補花": "打" };

const state = { tab: "act", seat: "東", verb: "", tiles: [], claimed: "", target: "",
  offence: "", kind: "手牌", meld: "碰", suit: "萬", written: "" };
const hands = {}; // seat → { 手牌: [], 門前: [[kind, ...tiles]], 花: [] }

function hand() {
  return (hands[state.seat] = hands[state.seat] || { "手牌": [], "門前": [], "花": [] });
}

function drawSeats() {
  const names = players();
  const box = $("seats");
  box.textContent = "";
  for (const s of SEATS_AND_REFEREE) {
    const b = el("button", { type: "button", class: "seat" + (s === state.seat ? " on" : ""), "data-seat": s });
    b.append(el("b", {}, s), el("span", {}, names[s] || ""));
    b.addEventListener("click", () => {
      state.seat = s;
      if (s === "裁判" && !BY_REFEREE.includes(state.verb)) chooseVerb("");
      drawSeats(); drawDraft(); drawHand();
    });
    box.append(b);
  }
}

function chooseVerb(verb) {
  state.verb = verb;
  state.tiles = [];
  state.target = "";
  state.offence = "";
  state.claimed = CLAIMS[verb] !== undefined ? lastDiscard() : "";
  drawDraft();
  if (AT_ONCE.includes(verb)) write();
}

function wireActs() {
  for (const b of document.querySelectorAll(".act")) {
    b.addEventListener("click", () => { state.written = ""; chooseVerb(b.dataset.act); });
  }
  for (const b of document.querySelectorAll(".target")) {
    b.addEventListener("click", () => {
      state.target = b.dataset.target;
      drawDraft();
      if (state.verb === "弄亂") write();
      else if (ACCUSE.includes(state.verb) && state.offence) write();
    });
  }
  for (const b of document.querySelectorAll(".offence")) {
    b.addEventListener("click", () => {
      state.offence = b.dataset.offence;
      drawDraft();
      if (state.verb === "自承" || state.target) write();
    });
  }
}

function drawPalette() {
  const suits = $("suits");
  suits.textContent = "";
  for (const name of Object.keys(SUITS)) {
    const b = el("button", { type: "button", class: "suit" + (name === state.suit ? " on" : ""), "data-suit": name }, name);
    b.addEventListener("click", () => { state.suit = name; drawPalette(); });
    suits.append(b);
  }
  const box = $("palette");
  box.textContent = "";
  for (const tile of SUITS[state.suit]) {
    const b = el("button", { type: "button", class: "tile", "data-tile": tile }, tile);
    b.addEventListener("click", () => tap(tile));
    box.append(b);
  }
}

function tap(tile) {
  if (state.tab === "act") {
    state.written = "";
    if (CLAIMS[state.verb] !== undefined && !state.claimed) state.claimed = tile;
    else state.tiles.push(tile);
    drawDraft();
    const need = CLAIMS[state.verb];
    if ((ONE_TILE.includes(state.verb) && state.tiles.length === 1)
        || (need !== undefined && state.claimed && state.tiles.length === need)) write();
    return;
  }
  const h = hand();
  if (state.kind === "門前") {
    const open = h["門前"][h["門前"].length - 1];
    const need = open ? (open[0] === "吃" ? 4 : 2) : 0;
    if (open && open.length < need) open.push(tile);
    else h["門前"].push([state.meld, tile]);
  } else {
    h[state.kind].push(tile);
  }
  drawHand();
}

// The line the taps make, or "" while it is not whole yet.
function draftText() {
  const v = state.verb;
  if (!v) return "";
  const actor = v === "荒局" ? "牌局" : state.seat;
  let rest;
  if (ACCUSE.includes(v)) {
    if (!state.target || !state.offence) return "";
    rest = [state.target, state.offence, ...state.tiles];
  } else if (v === "自承") {
    if (!state.offence) return "";
    rest = [state.offence, ...state.tiles];
  } else if (v === "弄亂") {
    if (!state.target) return "";
    rest = state.target === "牌牆" ? ["牌牆"] : [state.target, "手牌"];
  } else if (v === "檢查") {
    rest = ["暗杠"];
  } else if (CLAIMS[v] !== undefined) {
    if (!state.claimed) return "";
    rest = [state.claimed, ...(state.tiles.length ? ["用", ...state.tiles] : [])];
  } else {
    if (NEEDS_TILE.includes(v) && !state.tiles.length) return "";
    rest = state.tiles;
  }
  if (actor === "裁判" && !BY_REFEREE.includes(v)) return "";
  return `${nextNumber()}${actor} ${v} ${rest.join(" ")}`.trim();
}

// What the draft still lacks, in words.
function missing() {
  const v = state.verb;
  if (!v) return "點座位、動作、牌";
  if (ACCUSE.includes(v)) return !state.target ? "點被舉發的人" : "點違規";
  if (v === "自承") return "點違規";
  if (v === "弄亂") return "點 牌牆 或被弄亂手牌的人";
  if (CLAIMS[v] !== undefined && !state.claimed) return "點被" + v + "的牌";
  if (state.seat === "裁判") return "裁判只能 發現 或 檢查";
  return "點牌";
}

function drawDraft() {
  const line = draftText();
  const v = state.verb;
  const partial = `${state.seat} ${v} ${[state.target, state.offence, state.claimed,
    ...(CLAIMS[v] !== undefined && state.tiles.length ? ["用"] : []), ...state.tiles]
    .filter(Boolean).join(" ")}`;
  $("draft").textContent = state.written ? "已寫入：" + state.written
    : line || (v ? partial.trim() + "　← " + missing() : missing());
  $("add").disabled = !line;
  const accuse = ACCUSE.includes(v) || v === "自承";
  $("target-row").hidden = !(ACCUSE.includes(v) || v === "弄亂");
  for (const b of document.querySelectorAll(".target")) {
    b.hidden = b.dataset.target === "牌牆" ? v !== "弄亂" : false;
    b.classList.toggle("on", b.dataset.target === state.target);
  }
  $("offence-row").hidden = !accuse;
  for (const b of document.querySelectorAll(".offence")) b.classList.toggle("on", b.dataset.offence === state.offence);
  for (const b of document.querySelectorAll(".act")) b.classList.toggle("on", b.dataset.act === v);
}

// Write the draft as the record's next line, then set up the act that usually follows.
function write() {
  const line = draftText();
  if (!line) return;
  if (!log.value.split("\n").some((l) => RECORD.test(l))) {
    log.value = log.value.replace(/\n*$/, "\n\n紀錄:\n");
  }
  insertLines(line, EXPECT);
  const v = state.verb;
  const follow = FOLLOW[v];
  if (v === "打" && NEXT[state.seat]) { state.seat = NEXT[state.seat]; state.verb = "摸"; }
  else state.verb = follow || "";
  state.tiles = [];
  state.claimed = "";
  state.target = "";
  state.offence = "";
  state.written = line;
  drawSeats();
  drawDraft();
}

function undo() {
  if (!history.length) return;
  const before = log.value.split("\n").length;
  log.value = history.pop();
  $("undo").disabled = !history.length;
  state.written = "";
  const last = lastAct();
  state.verb = "";
  state.tiles = [];
  if (last && SEATS_AND_REFEREE.includes(last[0])) state.seat = last[0];
  showLine(Math.min(before, log.value.split("\n").length) - 2);
  scheduleLint();
  readHeader();
  drawSeats();
  drawDraft();
}

const sortTiles = (tiles) => tiles.slice().sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));

function handLines() {
  const h = hand();
  const out = [];
  if (h["手牌"].length) out.push(`${state.seat} 手牌: ${sortTiles(h["手牌"]).join(" ")}`);
  if (h["門前"].length) out.push(`${state.seat} 門前: ${h["門前"].map((m) => m.join(" ")).join(" / ")}`);
  if (h["花"].length) out.push(`${state.seat} 花: ${h["花"].join(" ")}`);
  return out;
}

// Tiles a hand holds between turns in the log's family (16 Taiwanese, 13 gd): the family
// of the log's own 規則: line, else of the profile picked, else of the default; the page
// gives each profile's count on its option.
function handSize() {
  const options = Array.from($("profile").options);
  const line = log.value.split("\n").find((l) => RULES.test(l));
  const named = line && options.find((o) => o.value && o.value === line.match(RULES)[1]);
  const chosen = named || $("profile").selectedOptions[0] || options[0];
  return parseInt(chosen.dataset.tiles, 10);
}

function drawHand() {
  const h = hand();
  $("hand-lines").textContent = handLines().join("\n") || "點牌以建立手牌";
  // Each set on the table stands for three of the hand's tiles, a kong too.
  $("hand-count").textContent = String(h["手牌"].length + 3 * h["門前"].length);
  const size = handSize();
  $("hand-size").textContent = String(size);
  $("hand-win").textContent = String(size + 1);
  for (const b of document.querySelectorAll("#hand-kinds .kind")) b.classList.toggle("on", b.dataset.kind === state.kind);
  for (const b of document.querySelectorAll("#meld-kinds .meld")) b.classList.toggle("on", b.dataset.meld === state.meld);
  $("meld-kinds").hidden = state.kind !== "門前";
}

function wire() {
  for (const b of document.querySelectorAll(".tab")) {
    b.addEventListener("click", () => {
      state.tab = b.dataset.tab;
      for (const x of document.querySelectorAll(".tab")) x.classList.toggle("on", x === b);
      $("act-pane").hidden = state.tab !== "act";
      $("hand-pane").hidden = state.tab !== "hand";
      drawHand();
    });
  }
  $("back").addEventListener("click", () => {
    state.written = "";
    if (state.tiles.length) state.tiles.pop();
    else if (state.offence) state.offence = "";
    else if (state.target) state.target = "";
    else if (state.claimed) state.claimed = "";
    else state.verb = "";
    drawDraft();
  });
  $("add").addEventListener("click", write);
  $("undo").addEventListener("click", undo);
  $("seq-from").addEventListener("input", drawDraft);
  for (const box of document.querySelectorAll("#header-fields [data-key]")) {
    box.addEventListener("change", () => setHeader(box.dataset.key, box.value.trim()));
  }
  for (const b of document.querySelectorAll("#hand-kinds .kind")) {
    b.addEventListener("click", () => { state.kind = b.dataset.kind; drawHand(); });
  }
  for (const b of document.querySelectorAll("#meld-kinds .meld")) {
    b.addEventListener("click", () => { state.meld = b.dataset.meld; drawHand(); });
  }
  $("hand-back").addEventListener("click", () => {
    const h = hand();
    const list = h[state.kind];
    if (state.kind === "門前" && list.length && list[list.length - 1].length > 2) list[list.length - 1].pop();
    else list.pop();
    drawHand();
  });
  $("hand-clear").addEventListener("click", () => { hands[state.seat] = undefined; drawHand(); });
  $("hand-add").addEventListener("click", () => {
    const lines = handLines();
    if (lines.length) insertLines(lines.join("\n"), RECORD);
    hands[state.seat] = undefined;
    drawHand();
  });
  log.addEventListener("input", () => { scheduleLint(); readHeader(); drawSeats(); drawDraft(); drawHand(); });
  $("profile").addEventListener("change", () => { scheduleLint(); drawHand(); });
  $("settings").addEventListener("input", scheduleLint);
  $("judge").addEventListener("click", judge);
}

// ------------------------------------------------------------------ judging

async function judge() {
  const params = query();
  params.set("format", "html");
  params.set("archive", "true");
  $("judge-state").textContent = "裁決中…";
  let response;
  try {
    response = await post("/api/judge", params);
  } catch (err) {
    $("judge-state").textContent = "無法連線";
    return;
  }
  if (!response.ok) {
    const answer = await response.json().catch(() => ({ error: { message: response.statusText } }));
    $("judge-state").textContent = answer.error.message;
    $("judge-state").className = "state bad";
    lint();
    return;
  }
  const id = response.headers.get("X-Ruling-Id");
  const frame = $("report");
  frame.hidden = false;
  frame.srcdoc = await response.text();
  $("judge-state").textContent = "已存檔";
  $("judge-state").className = "state ok";
  const base = "/r/" + encodeURIComponent(id);
  $("permalink").href = base;
  $("permalink").textContent = location.origin + base;
  for (const ext of ["md", "html", "json", "pdf"]) $("dl-" + ext).href = base + "." + ext;
  $("links").hidden = false;
}

$("report").addEventListener("load", () => {
  const frame = $("report");
  const doc = frame.contentDocument;
  if (doc && doc.documentElement) frame.style.height = doc.documentElement.scrollHeight + 24 + "px";
  frame.scrollIntoView({ behavior: "smooth", block: "start" });
});

drawSeats();
wireActs();
readHeader();
drawPalette();
drawDraft();
drawHand();
wire();
lint();
