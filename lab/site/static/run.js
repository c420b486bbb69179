// Running a lesson's cells in the browser, on Pyodide served from this folder.
//
// Pyodide's files are classic scripts here (see lab/site/pyodide_files.py): a page opened
// from disk may load those, but not fetch() a file. This answers Pyodide's fetch of its two
// binaries from the scripts, so that nothing is ever asked of the network.
(function () {
  "use strict";
  const page = document.body.dataset;
  const assets = new URL(page.assets, document.baseURI).href;
  const here = assets + "pyodide/";
  let booting = null;

  function script(src) {
    return new Promise((resolve, reject) => {
      const tag = document.createElement("script");
      tag.src = src;
      tag.onload = resolve;
      tag.onerror = () => reject(new Error("could not load " + src));
      document.head.appendChild(tag);
    });
  }

  function bytes(name) {
    const text = atob(globalThis.__courseBlobs[name]);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }

  function answerFromBlobs() {
    const real = globalThis.fetch;
    const types = { "pyodide.asm.wasm": "application/wasm", "python_stdlib.zip": "application/zip" };
    globalThis.fetch = function (url, options) {
      const name = String(url instanceof Request ? url.url : url).split("/").pop();
      if (name in types && globalThis.__courseBlobs && globalThis.__courseBlobs[name]) {
        return Promise.resolve(new Response(bytes(name), { headers: { "Content-Type": types[name] } }));
      }
      return real.call(globalThis, url, options);
    };
  }

  // Pyodide, started once a page: the lab's student-facing modules, the browser's
  // lab.notebook.harnesses and the cell runner written into its file system.
  async function boot() {
    const started = performance.now();
    globalThis.__courseBase = here + "pyodide.asm.js";
    await Promise.all(["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm.js",
      "python_stdlib.zip.js", "pyodide-lock.json.js"].map((name) => script(here + name)));
    await script(assets + "python-files.js");
    answerFromBlobs();
    const pyodide = await globalThis.loadPyodide({
      indexURL: here,
      packageBaseUrl: here,
      lockFileContents: globalThis.__courseLock,
      createPyodideModule: globalThis._createPyodideModule,
      stdout: () => {}, stderr: () => {},
    });
    const home = "/home/pyodide/";
    for (const [path, text] of Object.entries(globalThis.__coursePython)) {
      const folder = path.slice(0, path.lastIndexOf("/") + 1);  // lab/, lab/kit/
      if (folder) pyodide.FS.mkdirTree(home + folder);
      pyodide.FS.writeFile(home + path, text);
    }
    pyodide.FS.writeFile(home + "starter.py", document.getElementById("starter").textContent);
    pyodide.FS.chdir(home);
    pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
    const runner = pyodide.pyimport("_course_runner");
    window.courseTimings = { boot: performance.now() - started };
    return { pyodide, runner };
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function show(cell, result) {
    const live = cell.querySelector(".live");
    const out = live.querySelector(".live-output");
    clear(out);
    const add = (cls, text) => {
      const pre = document.createElement("pre");
      pre.className = cls;
      pre.textContent = text;
      out.appendChild(pre);
    };
    if (result.text) add("stream", result.text);
    if (result.value) add("value", result.value);
    if (result.svg) {
      const holder = document.createElement("div");
      holder.className = "figure";
      holder.innerHTML = result.svg;  // the lab's own figure, drawn by lab.figures
      out.appendChild(holder);
    }
    if (result.error) add("error", result.error);
    if (!out.firstChild) add("stream empty", "(printed nothing)");
    live.hidden = false;
    cell.classList.toggle("failed", Boolean(result.error));
  }

  async function runOne(cell) {
    if (!booting) booting = boot();
    const { pyodide, runner } = await booting;
    const harness = window.courseHarness ? window.courseHarness() : "";
    pyodide.FS.writeFile("/home/pyodide/" + (page.file || "harness.py"), harness);
    if (cell.id === "setup") loaded = harness;
    const code = cell.querySelector("pre.source code").textContent;
    const started = performance.now();
    const proxy = await runner.run(code, page.lab);
    const result = proxy.toJs({ dict_converter: Object.fromEntries });
    proxy.destroy();
    result.ms = performance.now() - started;
    show(cell, result);
    cell.dataset.ran = "yes";
    document.dispatchEvent(new CustomEvent("course:ran", { detail: { cell: cell.id, result } }));
    return result;
  }

  // Run `target`, and first every runnable cell above it that has not run yet, as a notebook
  // needs its earlier cells.
  // When harness.py has changed since the setup cell last loaded it, that cell runs again
  // first, so that every Run is on the file as it is now.
  let queue = Promise.resolve();
  let loaded = null;
  function run(target) {
    const cells = Array.from(document.querySelectorAll(".cell[data-runnable]"));
    const upto = cells.indexOf(target);
    const todo = cells.slice(0, upto + 1).filter((c) => c === target || c.dataset.ran !== "yes");
    const setup = document.getElementById("setup");
    const now = window.courseHarness ? window.courseHarness() : "";
    if (setup && setup.dataset.runnable !== undefined && loaded !== null && now !== loaded && !todo.includes(setup)) {
      todo.unshift(setup);
    }
    queue = queue.then(async () => {
      for (const cell of todo) {
        cell.classList.add("running");
        try { await runOne(cell); }
        catch (error) { show(cell, { text: "", error: "The browser could not run this cell: " + error }); }
        finally { cell.classList.remove("running"); }
      }
    });
    return queue;
  }

  window.courseRun = run;
  window.courseRunAll = function () {
    const cells = Array.from(document.querySelectorAll(".cell[data-runnable]"));
    const done = cells.length ? run(cells[cells.length - 1]) : Promise.resolve();
    return done.then(() => { window.courseAllRan = true; });
  };
})();
