// The table's only script. The pages work without it (plain forms); with it:
// - the next box or button takes the focus (keyboard-only play; at one screen the next
//   player types straight away), and the arrow keys move through the targets;
// - the clocks count down (outside the live region: a screen reader is not read seconds);
// - a lesson's page stays live: the server pushes the page's new parts over a WebSocket
//   (no polling), a press is sent with fetch, and a dropped connection comes back by itself.
"use strict";

const main = () => document.getElementById("table");
// The lesson's root: "" on a laptop's lesson, "/l/<CODE>" on a school server (every address
// of the lesson's is under it).
const lessonRoot = () => (main() && main().dataset.root) || "";
let socket = null;

function focusNext() {
  const root = main();
  // The teacher's projector view and the summary keep their place (nothing is next there).
  if (root && ["teacher", "summary"].includes(root.dataset.state)) return;
  const answer = document.querySelector('input[name="answer"]');
  if (answer) {
    answer.focus();
    answer.select();
    return;
  }
  // The first of these that the page has, in this order (not the first in the page).
  const order = ['.targets button[tabindex="0"]', ".actions button", ".summary button",
    ".challenge button", ".setup select", ".games button", ".join input"];
  for (const selector of order) {
    const next = document.querySelector(selector);
    if (next) {
      next.focus();
      return;
    }
  }
}

// -- clocks ---------------------------------------------------------------------------------

function show(clock, left) {
  clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
}

setInterval(() => {
  // A clock the teacher's pause stopped stands still (the server marks it).
  for (const clock of document.querySelectorAll("time[data-seconds]:not([data-stopped])")) {
    const left = Math.max(0, Number(clock.dataset.left ?? clock.dataset.seconds) - 1);
    clock.dataset.left = String(left);
    show(clock, left);
    if (left === 0 && !clock.dataset.done) {
      clock.dataset.done = "1";
      if (!main().dataset.live) window.location.reload(); // the one-screen table
    }
  }
}, 1000);

// -- the targets: one Tab stop, the arrow keys move, Enter names it ---------------------------

function roving() {
  for (const group of document.querySelectorAll("[data-roving]")) {
    if (group.dataset.bound) continue;
    group.dataset.bound = "1";
    group.addEventListener("keydown", (event) => {
      const buttons = Array.from(group.querySelectorAll("button"));
      const at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      const columns = Math.max(1, Math.round(group.clientWidth / buttons[0].offsetWidth));
      const step = { ArrowRight: 1, ArrowDown: columns, ArrowLeft: -1, ArrowUp: -columns,
                     Home: -at, End: buttons.length - 1 - at }[event.key];
      if (step === undefined) return;
      event.preventDefault();
      const next = buttons[Math.min(buttons.length - 1, Math.max(0, at + step))];
      buttons[at].tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    });
  }
}

// -- a lesson's live page ---------------------------------------------------------------------

function say(text) {
  const box = document.getElementById("messages");
  if (!box) return;
  const line = document.createElement("p");
  line.className = "message error";
  line.id = "message";
  line.setAttribute("role", "alert");
  line.textContent = text;
  box.replaceChildren(line);
}

// The line that says the live connection is lost: the page's last child, kept when the page
// changes, fixed at the bottom of the screen (nothing moves when it appears).
function linkLine() {
  let line = document.getElementById("link");
  if (!line) {
    line = document.createElement("p");
    line.id = "link";
    line.className = "link";
    line.setAttribute("role", "status");
    main().append(line);
  }
  return line;
}

let lostSoon = null;

function linkLost(lost) {
  const line = linkLine();
  if (!lost) {
    clearTimeout(lostSoon);
    lostSoon = null;
    line.textContent = "";
    return;
  }
  // A blink (a quick reconnect) is not worth a word; a lasting loss is said once.
  if (lostSoon || line.textContent) return;
  lostSoon = setTimeout(() => {
    lostSoon = null;
    line.textContent = main().dataset.lost || "";
  }, 1500);
}

// The teacher's page: a part redrawn while the teacher works in it keeps what they did there: an open menu
// stays open, a choice made but not yet sent stays chosen, the focus stays where it was.
function kept(root) {
  if (root.dataset.live !== "teacher") return { open: [], values: {}, focus: null };
  const open = Array.from(root.querySelectorAll("details[open][id]"), (d) => d.id);
  const values = {};
  for (const field of root.querySelectorAll("select[id], input[id]")) {
    const changed = field.tagName === "SELECT"
      ? Array.from(field.options).some((o) => o.selected !== o.defaultSelected)
      : field.type === "checkbox" ? field.checked !== field.defaultChecked
        : field.value !== field.defaultValue;
    if (changed) values[field.id] = field.type === "checkbox" ? field.checked : field.value;
  }
  const focus = document.activeElement && document.activeElement.id;
  return { open, values, focus };
}

function restore(state) {
  for (const id of state.open) {
    const details = document.getElementById(id);
    if (details) details.open = true;
  }
  for (const [id, value] of Object.entries(state.values)) {
    const field = document.getElementById(id);
    if (!field) continue;
    if (field.type === "checkbox") field.checked = value;
    else if (field.tagName !== "SELECT" || Array.from(field.options).some((o) => o.value === value)) field.value = value;
  }
  const focused = state.focus && document.getElementById(state.focus);
  if (focused && document.activeElement !== focused) focused.focus();
}

// The teacher's form holds every game's options: those the chosen game does not ask are
// hidden (without the script they show, and the server reads only the chosen game's).
function gameFields() {
  const game = document.querySelector(".lesson-setup #game");
  if (!game) return;
  const sync = () => {
    for (const field of document.querySelectorAll(".lesson-setup [data-games]")) {
      field.hidden = !field.dataset.games.split(" ").includes(game.value);
    }
  };
  if (!game.dataset.bound) {
    game.dataset.bound = "1";
    game.addEventListener("change", sync);
  }
  sync();
}

function apply(message) {
  const root = main();
  const state = kept(root);
  const template = document.createElement("template");
  template.innerHTML = message.html;
  const fresh = Array.from(template.content.children);
  const link = document.getElementById("link");
  const old = Array.from(root.children).filter((el) => el !== link);
  const focused = root.contains(document.activeElement) ? document.activeElement : null;
  const same = fresh.length === old.length && fresh.every((el, i) => el.id && el.id === old[i].id);
  let moved = false;
  if (!same) {
    root.replaceChildren(...fresh);
    if (link) root.append(link);
    moved = true;
  } else {
    fresh.forEach((el, i) => {
      const before = old[i];
      if (before.outerHTML === el.outerHTML) return;
      if (before.id === "actions" || before.id === "turn") moved = true;
      before.innerHTML = el.innerHTML;
    });
  }
  root.dataset.state = message.state;
  for (const [key, value] of Object.entries(message.data || {})) root.dataset[key] = value;
  document.title = message.title;
  restore(state);
  bind();
  if (moved && (!focused || !document.contains(focused))) focusNext();
}

// A few parts alone (the class goal, moved by a round at another table): each replaced in
// place, and only when it changed, so its live region tells the change and nothing else.
function applyParts(parts) {
  const root = main();
  for (const [id, html] of Object.entries(parts)) {
    const part = document.getElementById(id);
    if (!part || part.parentElement !== root) continue;
    const fresh = document.createElement("template");
    fresh.innerHTML = html;
    if (part.innerHTML !== fresh.innerHTML) part.replaceChildren(fresh.content);
  }
}

function connect(tries) {
  const root = main();
  const teacher = root.dataset.live === "teacher";
  const lang = document.documentElement.lang;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const live = `${lessonRoot()}/live`;
  const url = `${scheme}//${location.host}${live}?lang=${lang}${teacher ? "&as=teacher" : "&page=live"}`;
  socket = new WebSocket(url);
  socket.addEventListener("open", () => {
    tries = 0;
    linkLost(false);
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    // A page whose seat is gone is sent the join page (with the code when the lesson knows
    // this device): the way back in, never a dead end.
    if (message.html !== undefined) apply(message);
    else if (message.parts) applyParts(message.parts);
  });
  socket.addEventListener("close", (event) => {
    socket = null;
    // Closed for a newer tab of this device (live.REPLACED): that tab is the live one now.
    // A join page (the seat is gone) has nothing to follow.
    if (event.code === 4001 || main().dataset.state === "join") return;
    linkLost(true);
    // A device that slept, lost the Wi-Fi or whose server restarted comes back to the same
    // seat within seconds: the first message after reconnecting is the whole page as it is
    // now. A little jitter, so a class's devices do not all knock at the same moment.
    const wait = Math.min(1000, 250 * 2 ** tries) * (0.75 + Math.random() / 2);
    setTimeout(() => connect(tries + 1), wait);
  });
}

// A press made with no network: said once (a status, not an alarm), and sent again every
// second until it gets through; the page that comes back with it replaces the line.
function queued() {
  const box = document.getElementById("messages");
  const text = main().dataset.queued;
  if (!box || !text || document.getElementById("queued")) return;
  const line = document.createElement("p");
  line.className = "message note";
  line.id = "queued";
  line.setAttribute("role", "status");
  line.textContent = text;
  box.append(line);
}

async function send(form, submitter) {
  const body = new FormData(form);
  if (submitter && submitter.name) body.append(submitter.name, submitter.value);
  // The page's language in the address too: a refusal the server gives before it reads the
  // form (a body it cannot read) is still in the page's words.
  const url = new URL(form.action, location.href);
  url.searchParams.set("lang", document.documentElement.lang);
  let answer;
  try {
    answer = await fetch(url, {
      method: "POST", body: new URLSearchParams(body), headers: { Accept: "application/json" },
    });
  } catch (error) {
    queued();
    setTimeout(() => send(form, submitter), 1000);
    return;
  }
  const waited = document.getElementById("queued");
  if (waited) waited.remove();
  if (!answer.ok) {
    const refused = await answer.json().catch(() => ({ error: "" }));
    if (refused.to) {
      window.location.assign(refused.to); // the seat is gone: the join page, the way back in
      return;
    }
    say(refused.error);
    return;
  }
  if (!socket || socket.readyState !== WebSocket.OPEN) window.location.reload();
}

function bind() {
  roving();
  gameFields();
  if (!main().dataset.live) return;
  for (const form of document.querySelectorAll('form[data-live="act"]')) {
    if (form.dataset.bound) continue;
    form.dataset.bound = "1";
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      send(form, event.submitter);
    });
  }
}

// The join page: does this device already hold a seat (a pupil back by the QR code, whose
// cookie a cross-site link does not carry), and does the live connection get through?
function checkJoin() {
  const line = document.getElementById("connection");
  if (!line) return;
  fetch(`${lessonRoot()}/seat`, { headers: { Accept: "application/json" } })
    .then((answer) => answer.json())
    .then((seat) => { if (seat.seat) window.location.replace(`${lessonRoot()}/table`); })
    .catch(() => {});
  line.textContent = line.dataset.checking;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const probe = new WebSocket(`${scheme}//${location.host}${lessonRoot()}/live`);
  const blocked = setTimeout(() => { line.textContent = line.dataset.blocked; probe.close(); }, 5000);
  let through = false;
  probe.addEventListener("message", () => {
    through = true;
    clearTimeout(blocked);
    line.textContent = line.dataset.ok;
  });
  // Refused, cut off by a filter or closed before the server's word: blocked.
  for (const end of ["error", "close"]) {
    probe.addEventListener(end, () => {
      if (through) return;
      clearTimeout(blocked);
      line.textContent = line.dataset.blocked;
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  focusNext();
  bind();
  for (const button of document.querySelectorAll("button[data-print]")) {
    button.addEventListener("click", () => window.print());
  }
  const root = main();
  if (root && root.dataset.live && root.dataset.state !== "join") connect(0);
  checkJoin();
});
