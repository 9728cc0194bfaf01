/* The phone page's script: the live part follows the table by server-sent events, and
   the forms post JSON to the table with the page's CSRF token. Every word it shows comes
   from the page (already in the table's language) or from the server's answers. */
"use strict";

(function () {
  const body = document.body;
  const meta = document.querySelector('meta[name="csrf-token"]');
  const csrf = meta ? meta.content : "";

  /* POST `data` as JSON; the answer's JSON, or an Error with the server's words. */
  async function post(url, data) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify(data),
      });
    } catch (failure) {
      throw new Error(body.dataset.unreachable);
    }
    let answer = null;
    try {
      answer = await response.json();
    } catch (failure) {
      answer = null;
    }
    if (!response.ok) {
      const words = answer && typeof answer.error === "string" ? answer.error : "";
      const refused = new Error(words || `${response.status} ${response.statusText}`);
      refused.status = response.status;
      refused.fields = answer && answer.fields && typeof answer.fields === "object" ? answer.fields : {};
      throw refused;
    }
    return answer || {};
  }

  function say(element, words) {
    if (element) {
      element.textContent = words;
      element.hidden = !words;
    }
  }

  /* Post from a form or a button, showing the server's refusal beside it. */
  async function send(control, errorElement, url, data, done) {
    say(errorElement, "");
    control.disabled = true;
    try {
      const answer = await post(url, data);
      if (done) done(answer);
    } catch (failure) {
      say(errorElement, failure.message);
    } finally {
      control.disabled = false;
    }
  }

  /* The countdown before a proposal confirms itself, counted down between updates. */
  let ticker = null;
  function countDown() {
    if (ticker !== null) clearInterval(ticker);
    ticker = null;
    const countdown = document.getElementById("countdown");
    if (!countdown) return;
    const shown = countdown.querySelector(".seconds");
    const seconds = Number(countdown.dataset.seconds);
    const start = Date.now();
    ticker = setInterval(() => {
      const left = Math.max(0, Math.ceil(seconds - (Date.now() - start) / 1000));
      shown.textContent = String(left);
      if (left === 0) {
        clearInterval(ticker);
        ticker = null;
      }
    }, 250);
  }

  /* ---- the setup page: names, edition and options, kept in step with the table ---- */

  function setField(field, value) {
    if (!field) return;
    field.dataset.value = value;
    if (field === document.activeElement || field.classList.contains("dirty")) return;
    if (field.tagName === "SELECT" && !Array.from(field.options).some((o) => o.value === value)) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = value;
      field.appendChild(option);
    }
    field.value = value;
  }

  function followSetup(state) {
    const form = document.getElementById("setup-form");
    const closed = document.getElementById("setup-closed");
    const setup = state.setup;
    if (!form) return;
    form.hidden = !setup;
    closed.hidden = Boolean(setup);
    if (!setup) return;
    setField(form.querySelector("#ruleset"), setup.ruleset);
    for (const [name, value] of Object.entries(setup.options || {})) {
      const select = form.querySelector(`select[data-option="${CSS.escape(name)}"]`);
      setField(select, value === null ? "none" : String(value));
    }
    const list = document.getElementById("seats");
    const models = document.getElementById("seat-rows").content;
    const wanted = (setup.seats || []).map((seat) => seat.colour);
    for (const row of Array.from(list.querySelectorAll("li.seat"))) {
      if (!wanted.includes(row.dataset.colour) && !row.contains(document.activeElement)) {
        row.remove();
      }
    }
    let previous = null;
    for (const colour of wanted) {
      const selector = `li.seat[data-colour="${CSS.escape(colour)}"]`;
      let row = list.querySelector(selector);
      const place = previous ? previous.nextSibling : list.firstChild;
      if (!row) {
        const model = models.querySelector(selector);
        if (!model) continue;
        row = model.cloneNode(true);
        list.insertBefore(row, place);
      } else if (row !== place && !row.contains(document.activeElement)) {
        list.insertBefore(row, place);
      }
      previous = row;
      setField(row.querySelector("input"), (setup.named || {})[colour] || "");
    }
    document.getElementById("no-seats").hidden = wanted.length > 0;
  }

  function setupForm() {
    const form = document.getElementById("setup-form");
    if (!form) return;
    const error = document.getElementById("setup-error");
    const sent = document.getElementById("setup-sent");
    const button = document.getElementById("setup-send");
    function changes(fields) {
      const changed = fields.filter((f) => f.dataset.value !== undefined && f.value !== f.dataset.value);
      const data = {};
      for (const field of changed) {
        if (field.id === "ruleset") {
          data.ruleset = field.value;
        } else if (field.dataset.option) {
          data.options = data.options || {};
          data.options[field.dataset.option] = field.value === "none" ? null : Number(field.value);
        } else if (field.dataset.colour) {
          data.names = data.names || {};
          data.names[field.dataset.colour] = field.value.trim();
        }
      }
      return [changed, data];
    }
    function submit(fields) {
      const [changed, data] = changes(fields);
      if (changed.length === 0) return;
      sent.hidden = true;
      send(button, error, "/api/setup", data, () => {
        for (const field of changed) {
          field.classList.remove("dirty");
          field.dataset.value = field.value;
        }
        sent.hidden = false;
      });
    }
    form.addEventListener("input", (event) => event.target.classList.add("dirty"));
    form.addEventListener("change", (event) => submit([event.target]));
    form.addEventListener("focusout", (event) => {
      const field = event.target;
      if (field.dataset && field.dataset.value !== undefined && !field.classList.contains("dirty")) {
        field.value = field.dataset.value;
      }
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      submit(Array.from(form.querySelectorAll("input, select")));
    });
  }

  /* ---- the game page: a note when the game changes, and the staff's corrections ---- */

  let seen = null;
  function followGame(state) {
    const game = document.getElementById("game");
    if (!game) return;
    const atTable = state.game !== null && String(state.game) === game.dataset.game;
    // only the game at the table can be corrected (the server refuses the others)
    for (const correct of document.querySelectorAll("details.correct")) {
      correct.hidden = !atTable || Boolean(state.setup);
    }
    if (!atTable) return;
    const played = state.round - ((state.winners || []).length > 0 ? 0 : 1);
    const now = JSON.stringify([state.round, state.totals, state.winners]);
    if (seen === null) seen = now;
    if (now !== seen || String(played) !== game.dataset.rounds) {
      document.getElementById("game-changed").hidden = false;
    }
  }

  function corrections() {
    for (const form of document.querySelectorAll("form.correction")) {
      // each slot says whose card it holds, as chosen
      for (const select of form.querySelectorAll("select[data-slot]")) {
        select.addEventListener("change", () => {
          const chosen = select.options[select.selectedIndex];
          const label = select.closest(".field").querySelector(".field-label");
          if (chosen && chosen.dataset.label) label.textContent = chosen.dataset.label;
        });
      }
      const besides = Array.from(form.querySelectorAll(".field-error"));
      function sayBeside(fields) {
        for (const beside of besides) {
          const words = fields[beside.dataset.errorFor] || "";
          say(beside, words);
          beside.closest(".field").classList.toggle("at-fault", Boolean(words));
        }
      }
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const round = { cards: {}, votes: {} };
        for (const select of form.querySelectorAll("select[data-slot]")) {
          if (select.value) round.cards[select.dataset.slot] = select.value;
        }
        for (const select of form.querySelectorAll("select[data-voter]")) {
          if (!select.value) continue;
          const voter = select.dataset.voter;
          round.votes[voter] = (round.votes[voter] || []).concat([Number(select.value)]);
        }
        const trap = form.querySelector("select[data-trap]");
        if (trap && trap.value) round.trap = Number(trap.value);
        const drawn = document.getElementById("game");
        const version = drawn ? drawn.dataset.version : "";
        const url = `/api/games/${form.dataset.game}/rounds/${form.dataset.round}?version=${version}`;
        const button = form.querySelector("button");
        const error = form.querySelector(".error");
        sayBeside({});
        say(error, "");
        button.disabled = true;
        try {
          await post(url, round);
          window.location.reload();
        } catch (failure) {
          const fields = failure.fields || {};
          sayBeside(fields);
          // the form's own line says what no field does, or points at the first field
          say(error, failure.message);
          const first = besides.find((b) => !b.hidden);
          if (first) first.closest(".field").querySelector("select").focus();
        } finally {
          button.disabled = false;
        }
      });
    }
  }

  /* ---- the staff page ---- */

  function staff() {
    const login = document.getElementById("staff-login");
    if (login) {
      login.addEventListener("submit", (event) => {
        event.preventDefault();
        const pin = document.getElementById("pin").value.trim();
        send(login.querySelector("button"), login.querySelector(".error"), "/staff/login", { pin }, () =>
          window.location.reload(),
        );
      });
    }
    const logout = document.getElementById("staff-logout");
    if (logout) {
      logout.addEventListener("submit", (event) => {
        event.preventDefault();
        send(logout.querySelector("button"), logout.querySelector(".error"), "/staff/logout", {}, () =>
          window.location.reload(),
        );
      });
    }
    const panel = document.getElementById("staff-pending");
    if (!panel) return;
    const error = document.getElementById("staff-error");
    const done = document.getElementById("staff-done");
    panel.addEventListener("click", async (event) => {
      const button = event.target.closest("button[data-action]");
      if (!button || button.disabled) return;
      if (button.dataset.ask && !window.confirm(button.dataset.ask)) return;
      /* the version of what the staff saw: the table refuses the press if its meaning
         changed since (409), and the panel is drawn again */
      const shown = panel.querySelector("[data-version]");
      const version = shown ? Number(shown.dataset.version) : null;
      done.hidden = true;
      say(error, "");
      button.disabled = true;
      try {
        await post("/api/actions", { action: button.dataset.action, version });
        done.hidden = false;
      } catch (failure) {
        say(error, failure.message);
        if (failure.status === 409) await redrawPanel();
      } finally {
        button.disabled = false;
      }
    });
  }

  /* Draw the staff panel again from the page as the table now serves it (after a
     refusal, whether or not the stream is following). */
  async function redrawPanel() {
    const panel = document.getElementById("staff-pending");
    try {
      const response = await fetch("/staff", { credentials: "same-origin", cache: "no-store" });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.getElementById("staff-pending");
      if (panel && fresh) {
        panel.innerHTML = fresh.innerHTML;
        countDown();
      }
    } catch (failure) {
      window.location.reload();
    }
  }

  /* ---- the stream ---- */

  function follow() {
    if (!("live" in body.dataset) || !window.EventSource) return;
    const note = document.getElementById("reconnecting");
    const source = new EventSource("/events");
    source.addEventListener("open", () => {
      note.hidden = true;
    });
    source.addEventListener("error", () => {
      note.hidden = false;
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(follow, 5000);
      }
    });
    source.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch (failure) {
        return;
      }
      note.hidden = true;
      const state = data.state || {};
      if (state.language && state.language !== document.documentElement.lang) {
        /* the group picked another language: the whole page follows, not only #live */
        source.close();
        window.location.reload();
        return;
      }
      const live = document.getElementById("live");
      if (live && typeof data.html === "string") {
        live.innerHTML = data.html;
        countDown();
      }
      const panel = document.getElementById("staff-pending");
      if (panel && typeof data.staff === "string" && data.staff) {
        panel.innerHTML = data.staff;
        countDown();
      }
      const page = body.dataset.page;
      const setupLink = document.getElementById("nav-setup");
      if (setupLink && page !== "setup") setupLink.hidden = !state.setup;
      if (page === "setup") followSetup(state);
      if (page === "game") followGame(state);
    });
  }

  countDown();
  setupForm();
  corrections();
  staff();
  follow();
})();
