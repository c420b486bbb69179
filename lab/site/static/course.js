// A lab page and the course map: the reader's choices, harness.py and progress, all kept in
// this browser's localStorage under "course:" keys. Nothing here grades anything: a pass is
// only ever the reader's own lab-check result, pasted or uploaded on the map.
(function () {
  "use strict";
  const page = document.body.dataset;
  const store = {
    get(key) { try { return localStorage.getItem("course:" + key); } catch (e) { return null; } },
    set(key, value) { try { localStorage.setItem("course:" + key, value); } catch (e) { /* private mode */ } },
    drop(key) { try { localStorage.removeItem("course:" + key); } catch (e) { /* private mode */ } },
  };
  window.courseStore = store;

  // Questions: each option is a <details>; opening one is choosing it, and the choice is kept.
  function questions(lab) {
    for (const option of document.querySelectorAll("details.option")) {
      const key = `${lab}:q:${option.dataset.question}`;
      if (store.get(key) === option.dataset.option) { mark(option, true); option.open = true; }
      const choose = () => {
        store.set(key, option.dataset.option);
        for (const other of document.querySelectorAll(`details.option[data-question="${option.dataset.question}"]`)) {
          mark(other, other === option);
        }
      };
      // A click on the summary (the mouse's, or Enter's and Space's on it) is the choice,
      // kept at once; the toggle that follows also catches an option opened any other way.
      option.querySelector("summary").addEventListener("click", () => { if (!option.open) choose(); });
      option.addEventListener("toggle", () => { if (option.open && store.get(key) !== option.dataset.option) choose(); });
    }
  }

  function mark(option, chosen) {
    option.classList.toggle("chosen", chosen);
    const badge = option.querySelector(".your-choice");
    if (badge) badge.hidden = !chosen;
  }

  // The reader's harness.py: their own file once they open it here, else the starter; their
  // edits on top, kept per lab. Where the text came from is said above the editor.
  function editor(lab) {
    const holder = document.getElementById("editor");
    const starter = document.getElementById("starter");
    if (!holder || !starter) return;
    const key = `${lab}:harness`, origin = `${lab}:harness-from`, file = page.file;
    const source = document.getElementById("harness-source");
    const say = () => {
      const own = store.get(origin);
      source.textContent = own
        ? `Started from your own ${file} (${own}), with your edits since.`
        : `Started from the file this lab starts from: open your own ${file} below to start from it.`;
    };
    const initial = store.get(key) ?? starter.textContent;
    let current = initial;
    const keep = (text) => { current = text; store.set(key, text); };
    let api = null;
    if (window.CourseEditor) {
      api = window.CourseEditor.create(holder, initial, keep);
      starter.hidden = true;
    }
    const put = (text) => { keep(text); if (api) api.replace(text); };
    window.courseHarness = () => (api ? api.text() : current);
    window.courseEditor = api;
    document.getElementById("open-harness").addEventListener("change", (event) => {
      const chosen = event.target.files[0];
      if (!chosen) return;
      chosen.text().then((text) => {
        const said = (text.match(/^# lab: (lesson|checkpoint) (\S+)/) || [])[2];
        const other = said && said.replace(/^0+(?=\d)/, "") !== lab.replace(/^0+(?=\d)/, "");
        store.set(origin, chosen.name + (other ? `, which says it is for ${said}, not ${lab}` : ""));
        put(text);
        say();
      });
    });
    document.getElementById("own-file").hidden = false;
    say();
    document.getElementById("reset-harness").addEventListener("click", () => {
      store.drop(key);
      store.drop(origin);
      current = starter.textContent;
      if (api) api.replace(current);
      store.drop(key);
      say();
    });
    document.getElementById("download-harness").addEventListener("click", () => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([window.courseHarness()], { type: "text/x-python" }));
      link.download = page.file || "harness.py";
      link.click();
    });
    document.getElementById("editor-tools").hidden = false;
  }

  // Run buttons, and ?run=all.
  function cells(lab) {
    for (const cell of document.querySelectorAll(".cell[data-runnable]")) {
      const button = cell.querySelector("button.run");
      button.hidden = false;
      const code = cell.querySelector("pre.source code");  // editable, as a notebook's cell is
      code.setAttribute("contenteditable", "plaintext-only");
      code.setAttribute("spellcheck", "false");
      code.setAttribute("aria-label", "The cell's code (editable)");
      button.addEventListener("click", () => window.courseRun(cell));
    }
    document.addEventListener("course:ran", (event) => {
      store.set(`${lab}:ran:${event.detail.cell}`, "1");
    });
    if (new URLSearchParams(location.search).get("run") === "all") window.courseRunAll();
  }

  // The map: each lab's progress, and the reader's own lab-check results.
  function progress() {
    for (const row of document.querySelectorAll("[data-progress]")) {
      const lab = row.dataset.progress;
      const answered = Object.keys(localStorage).filter((k) => k.startsWith(`course:${lab}:q:`)).length;
      const ran = Object.keys(localStorage).filter((k) => k.startsWith(`course:${lab}:ran:`)).length;
      const passed = store.get(`${lab}:passed`);
      let text = `questions answered ${answered}/${row.dataset.questions} · cells run ${ran}/${row.dataset.cells}`;
      if (passed) {
        const result = JSON.parse(passed);
        text += ` · passed on your machine: ${result.score}/${result.max_score} (lab-check ${result.version}, ${result.sha256.slice(0, 12)})`;
      }
      row.textContent = text;
      row.closest("li").classList.toggle("passed", Boolean(passed));
    }
  }

  function results() {
    const form = document.getElementById("result-form");
    if (!form) return;
    const said = document.getElementById("result-said");
    const take = (text) => {
      let result;
      try { result = JSON.parse(text); } catch (e) { said.textContent = "That is not JSON: paste what `lab-check --format json` printed."; return; }
      const raw = String(result.lesson ?? "");
      const lab = /^\d+$/.test(raw) ? raw.padStart(2, "0") : raw.toUpperCase();
      const known = document.querySelector(`[data-progress="${lab}"]`);
      if (!known || !Array.isArray(result.tests)) { said.textContent = "That is not a lab-check --format json result for a lab of this course."; return; }
      if (result.exit_code !== 0 || result.failed) {
        said.textContent = `Lab ${lab}: ${result.passed} passed, ${result.failed} failed on your machine; not marked.`;
        return;
      }
      store.set(`${lab}:passed`, JSON.stringify({ score: result.score, max_score: result.max_score, version: result.version, sha256: result.sha256 || "" }));
      said.textContent = `Lab ${lab} marked passed, as lab-check said on your machine.`;
      progress();
    };
    form.addEventListener("submit", (event) => { event.preventDefault(); take(document.getElementById("result-text").value); });
    document.getElementById("result-file").addEventListener("change", (event) => {
      const file = event.target.files[0];
      if (file) file.text().then(take);
    });
    form.hidden = false;
  }

  document.documentElement.classList.add("js");
  if (page.kind === "lab") {
    questions(page.lab);
    editor(page.lab);
    cells(page.lab);
  } else {
    progress();
    results();
  }
})();
