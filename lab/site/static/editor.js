// The reader's harness.py in a CodeMirror 6 editor. esbuild bundles this file with CodeMirror
// (from node_modules) into assets/editor.js at build time, a classic script that sets
// window.CourseEditor, so that it loads from disk (file://) as well as from a host.
import { EditorView, basicSetup } from "codemirror";
import { python } from "@codemirror/lang-python";

window.CourseEditor = {
  // An editor in `parent` holding `text`; `changed(text)` is called after every edit.
  create(parent, text, changed) {
    const view = new EditorView({
      doc: text,
      parent,
      extensions: [
        basicSetup,
        python(),
        EditorView.contentAttributes.of({ "aria-label": "Your harness.py" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) changed(update.state.doc.toString());
        }),
      ],
    });
    return {
      text: () => view.state.doc.toString(),
      replace(next) {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
      },
    };
  },
};
