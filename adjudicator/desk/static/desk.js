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
const ACTS = ["摸", "打", "吃", "碰", "明杠", "加杠", "暗杠", "補花", "補", "和", "自摸",
  "喊碰", "喊吃", "喊杠", "喊和", "過", "聽", "亮牌", "推倒", "入手", "復原"];
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

function insertLines(text, before) {
  // Put `text` before the first line matching `before`, else at the end.
  const lines = log.value.replace(/\n+$/, "").split("\n");
  const at = lines.findIndex((l) => before.test(l));
  if (at < 0) lines.push(text);
  else lines.splice(at, 0, text);
  log.value = lines.join("\n") + "\n";
  scheduleLint();
}

function nextNumber() {
  const lines = log.value.split("\n");
  const start = lines.findIndex((l) => RECORD.test(l));
  if (start < 0) return "";
  let last = null;
  for (const l of lines.slice(start + 1)) {
    if (EXPECT.test(l)) break;
    const m = l.match(/^\s*(\d+)/);
    if (m) last = parseInt(m[1], 10);
  }
  return last === null ? "" : String(last + 1) + " ";
}

// ------------------------------------------------------------------ tapping

const state = { tab: "act", seat: "東", verb: "", tiles: [], kind: "手牌", meld: "碰", suit: "萬" };
const hands = {}; // seat → { 手牌: [], 門前: [[kind, ...tiles]], 花: [] }

function hand() {
  return (hands[state.seat] = hands[state.seat] || { "手牌": [], "門前": [], "花": [] });
}

function drawSeats() {
  const names = players();
  const box = $("seats");
  box.textContent = "";
  for (const s of SEATS) {
    const b = el("button", { type: "button", class: "seat" + (s === state.seat ? " on" : ""), "data-seat": s });
    b.append(el("b", {}, s), el("span", {}, names[s] || ""));
    b.addEventListener("click", () => { state.seat = s; drawSeats(); drawDraft(); drawHand(); });
    box.append(b);
  }
}

function drawActs() {
  const box = $("acts");
  for (const verb of ACTS) {
    const b = el("button", { type: "button", class: "act", "data-act": verb }, verb);
    b.addEventListener("click", () => {
      state.verb = verb;
      state.tiles = [];
      for (const x of box.children) x.classList.toggle("on", x === b);
      drawDraft();
    });
    box.append(b);
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
    state.tiles.push(tile);
    drawDraft();
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

function draftText() {
  if (!state.verb) return "";
  return `${nextNumber()}${state.seat} ${state.verb} ${state.tiles.join(" ")}`.trim();
}

function drawDraft() {
  $("draft").textContent = draftText() || "點座位、動作、牌";
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
  $("use").addEventListener("click", () => { state.tiles.push("用"); drawDraft(); });
  $("back").addEventListener("click", () => { state.tiles.pop(); drawDraft(); });
  $("add").addEventListener("click", () => {
    const line = draftText();
    if (!line) return;
    if (!log.value.split("\n").some((l) => RECORD.test(l))) insertLines("紀錄:", /$^/);
    insertLines(line, EXPECT);
    state.tiles = [];
    drawDraft();
  });
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
    for (const line of handLines()) insertLines(line, RECORD);
    hands[state.seat] = undefined;
    drawHand();
  });
  log.addEventListener("input", () => { scheduleLint(); drawSeats(); drawDraft(); drawHand(); });
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
drawActs();
drawPalette();
drawDraft();
drawHand();
wire();
lint();
