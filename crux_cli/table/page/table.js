// crux table: the page players and the GM open (crux-table(7); the frames are table/PROTOCOL.md).
// The table rolls everything; this page only sends text and shows what the server says.
// Every text goes in with textContent: nothing the server or a player wrote is ever read as HTML.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const table = {
    socket: null, role: null, hero: null, next: null, words: [], retry: 1000, sent: 0,
    mine: new Set(),  // ids of the statements this page sent: their entries show in the answer box too
  };
  const KEEP = 500;  // log lines kept on the page

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  // -- the connection ------------------------------------------------------------------------------

  function socketUrl() {
    const path = location.pathname.replace(/\/+$/, "");
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path + "/ws";
  }

  function connect() {
    const socket = new WebSocket(socketUrl());
    table.socket = socket;
    socket.addEventListener("open", () => {
      const hello = { type: "hello" };
      if (table.next !== null) hello.since = table.next;
      send(hello);
      table.retry = 1000;
    });
    socket.addEventListener("message", (event) => receive(event.data));
    socket.addEventListener("close", (event) => lost(socket, event));
  }

  function lost(socket, event) {
    if (table.socket !== socket) return;
    table.socket = null;
    const why = event.code === 1000 ? "the table closed" :
      event.code === 1008 ? "too many messages" : event.code === 1009 ? "a message too long" : "connection lost";
    const wait = table.retry;
    setStatus(why + ": trying again in " + Math.round(wait / 1000) + " s", true);
    table.retry = Math.min(wait * 2, 10000);
    setTimeout(connect, wait);
  }

  function send(frame) {
    if (!table.socket || table.socket.readyState !== WebSocket.OPEN) return false;
    table.socket.send(JSON.stringify(frame));
    return true;
  }

  function setStatus(text, down) {
    const status = $("status");
    status.textContent = text;
    status.classList.toggle("down", Boolean(down));
  }

  // -- frames from the server ----------------------------------------------------------------------

  const HANDLERS = {
    welcome: welcomed, log: logged, entry: (f) => addEntry(f, true), fight: (f) => showFight(f.fight),
    joined: joined, refused: refused, error: (f) => showAnswer([f.message], "refused"),
    words: (f) => { table.words = strings(f.words); suggest(); if (Array.isArray(f.heroes)) showHeroes(strings(f.heroes)); },
    pong: () => {},
  };

  function receive(data) {
    let frame;
    try { frame = JSON.parse(data); } catch (e) { return; }
    if (!frame || typeof frame !== "object") return;
    const handle = HANDLERS[frame.type];
    if (handle) handle(frame);  // a frame of a newer server that this page does not know is left alone
  }

  function strings(list) { return Array.isArray(list) ? list.map(String) : []; }

  function welcomed(frame) {
    table.role = frame.role === "gm" ? "gm" : "player";
    $("role").textContent = table.role === "gm" ? "· GM" : "· player";
    document.title = table.role === "gm" ? "crux table · GM" : "crux table";
    $("gm").hidden = table.role !== "gm";
    setStatus("connected · " + (frame.rules || "") + " rules", false);
    showCommitment(frame.commitment);
    if (typeof frame.numbers === "boolean") $("numbers").checked = frame.numbers;
    showHeroes(strings(frame.heroes));
    table.words = strings(frame.words);
    suggest();
    const hero = table.hero || sessionStorage.getItem("crux-hero");
    if (hero) send({ type: "join", hero: hero, salt: salt() });
  }

  function showCommitment(commitment) {
    $("commitment").hidden = !commitment;
    $("commitment-value").textContent = commitment || "";
  }

  function showHeroes(heroes) {
    const select = $("hero");
    const chosen = select.value || table.hero || "";
    while (select.options.length > 1) select.remove(1);
    for (const name of heroes) {
      const option = el("option", "", name);
      option.value = name;
      select.append(option);
    }
    select.value = heroes.includes(chosen) ? chosen : "";
  }

  function joined(frame) {
    table.hero = frame.hero || null;
    if (table.hero) sessionStorage.setItem("crux-hero", table.hero); else sessionStorage.removeItem("crux-hero");
    $("joined").textContent = table.hero ? "rolling as " + table.hero : "rolling plain dice";
    if (table.hero) $("hero").value = table.hero;
    if (typeof frame.commitment === "string") showCommitment(frame.commitment);  // after a salt: the chain's value
  }

  function salt() {  // the player's salt, mixed into the session's seed at join (issue 35)
    let value = sessionStorage.getItem("crux-salt");
    if (!value) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      sessionStorage.setItem("crux-salt", value);
    }
    return value;
  }

  function refused(frame) {
    const lines = strings(frame.lines);
    showAnswer(lines.length ? lines : [frame.text || "refused"], "refused");
  }

  function showAnswer(lines, className) {
    const box = $("answer");
    box.replaceChildren(el("pre", className || "", lines.join("\n")));
  }

  // -- the log -------------------------------------------------------------------------------------

  function logged(frame) {
    for (const entry of Array.isArray(frame.entries) ? frame.entries : []) addEntry(entry, false);
    if (Number.isInteger(frame.next)) table.next = frame.next;
  }

  function addEntry(entry, live) {
    if (!entry || typeof entry !== "object") return;
    const lines = strings(entry.lines);
    if (entry.kind === "odds" || (live && table.mine.has(entry.id))) {
      table.mine.delete(entry.id);
      showAnswer(lines, entry.kind === "odds" ? "table" : "");  // odds are columns: scrolled, never wrapped
      if (entry.kind === "odds") return;
    }
    const log = $("log");
    if (Number.isInteger(entry.seq)) {
      if (log.querySelector('[data-seq="' + entry.seq + '"]')) return;  // already here (a reconnection)
      if (table.next === null || entry.seq >= table.next) table.next = entry.seq + 1;
    }
    log.prepend(entryItem(entry, lines));
    while (log.children.length > KEEP) log.lastElementChild.remove();
  }

  function entryItem(entry, lines) {
    const item = el("li", entry.kind === "note" ? "note" : "");
    if (Number.isInteger(entry.seq)) item.dataset.seq = String(entry.seq);
    const privacy = ["public", "gm", "blind", "self"].includes(entry.privacy) ? entry.privacy : "public";
    item.dataset.privacy = privacy;
    item.append(el("span", "who", entry.who || ""));
    if (privacy !== "public") item.append(el("span", "tag", PRIVACY_TAGS[privacy]));
    item.append(el("pre", "lines", lines.join("\n")));
    filterItem(item);
    return item;
  }

  const PRIVACY_TAGS = { gm: "to the GM", blind: "blind", self: "to self" };

  function filterItem(item) {
    const view = table.role === "gm" ? $("view").value : "all";
    item.classList.toggle("filtered", view !== "all" && item.dataset.privacy !== view);
  }

  // -- the fight -----------------------------------------------------------------------------------

  function showFight(fight) {
    const order = $("order");
    if (!fight || typeof fight !== "object") {
      $("round").textContent = "no fight yet";
      order.replaceChildren();
      return;
    }
    $("round").textContent = fightHead(fight);
    order.replaceChildren(...(Array.isArray(fight.order) ? fight.order : []).map(combatantItem));
  }

  function fightHead(fight) {
    if (fight.over) return "the fight is won";
    if (!fight.round) return "initiative not rolled yet";
    return "round " + fight.round + (fight.acting ? " · " + fight.acting + "'s turn" : "");
  }

  function combatantItem(c) {
    const side = c.side === "enemy" ? "enemy" : "hero";
    const item = el("li", side + (c.acting ? " acting" : "") + (c.down ? " down" : ""));
    if (c.acting) item.setAttribute("aria-current", "true");
    item.append(el("span", "name", c.name));
    item.append(el("span", "actions", c.down ? "down" : plural(Number(c.actions) || 0, "action")));
    item.append(el("span", "health", side === "hero" ? heroHealth(c) : enemyHealth(c)));
    const conditions = strings(c.conditions);
    if (c.dazed && !conditions.includes("dazed")) conditions.push("dazed");
    if (conditions.length) item.append(el("span", "conditions", conditions.join(", ")));
    return item;
  }

  function heroHealth(c) {
    const parts = [];
    if (c.hp !== undefined && c.hp !== null) parts.push("HP " + c.hp + (c.hp_max ? "/" + c.hp_max : ""));
    if (c.wounds !== undefined && c.wounds !== null) {
      parts.push("Wounds " + c.wounds + (c.wound_cap ? "/" + c.wound_cap : ""));
    }
    if (c.grit !== undefined && c.grit !== null) parts.push("Grit " + c.grit);
    if (c.dying) parts.push("dying");
    if (c.dead) parts.push("dead");
    return parts.join(" · ");
  }

  function enemyHealth(c) {
    if (c.minions && !c.down) return c.minions + " standing";
    const words = c.state || (c.down ? "down" : "");
    if (c.hp === undefined || c.hp === null) return words;
    return "HP " + c.hp + (c.hp_max ? "/" + c.hp_max : "") + (words ? " · " + words : "");
  }

  // -- the statement box ---------------------------------------------------------------------------

  function say(event) {
    event.preventDefault();
    const input = $("statement");
    const text = input.value.trim();
    if (!text) return;
    const id = ++table.sent;
    if (!send({ type: "say", text: text, privacy: $("privacy").value, id: id })) {
      showAnswer(["not connected: the statement was not sent"], "refused");
      return;
    }
    table.mine.add(id);
    input.value = "";
    suggest();
  }

  function join(event) {
    event.preventDefault();
    const hero = $("hero").value || null;
    if (!send({ type: "join", hero: hero, salt: salt() })) showAnswer(["not connected"], "refused");
  }

  // Suggestions: the datalist offers whole lines, so each candidate is the line so far with its last word completed.
  function suggest() {
    const text = $("statement").value;
    const cut = text.search(/\S*$/);
    const before = text.slice(0, cut), typed = text.slice(cut).toLowerCase();
    const list = $("words");
    const options = [];
    for (const word of table.words) {
      if (options.length >= 20) break;
      if (word.toLowerCase().startsWith(typed) && word.toLowerCase() !== typed) {
        const option = document.createElement("option");
        option.value = before + word;
        options.push(option);
      }
    }
    list.replaceChildren(...options);
  }

  function start() {
    $("say").addEventListener("submit", say);
    $("join").addEventListener("submit", join);
    $("statement").addEventListener("input", suggest);
    $("view").addEventListener("change", () => { for (const item of $("log").children) filterItem(item); });
    $("numbers").addEventListener("change", (e) => send({ type: "numbers", show: e.target.checked }));
    connect();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
